/**
 * What a status means for the work that watches it: when a wait for a running host or a
 * completed backup ends, as a success or a failure, and how the Task Trigger reports a backup.
 * The words of the statuses are the code lists' (hosts.ts); this file adds only their meaning.
 */
import { BACKUP_STATUS, HOST_STATUS } from './hosts';
import { codeKey, table } from './reading';

const HOST_WORDS = table(HOST_STATUS);

/** The display name of a host status: "Running", or "Status 12" for a value the documentation does not list. */
export function hostStatusName(value: unknown): string | null {
	const key = codeKey(value);
	if (key === undefined) return null;
	return HOST_WORDS[key] ?? `Status ${key}`;
}

/** The status of a running host, as a code key. */
export const HOST_RUNNING = '1';

/**
 * Host statuses that end a wait for "running" as a failure: the host will not run by itself from
 * them (3 abnormal, 7 deleting, 9 recycle bin). The others (creating, paused, reinstalling,
 * restricted, maintenance, queued) may still turn into running, so a wait goes on until its timeout.
 */
export const HOST_WAIT_FAILURES: Record<string, string> = {
	'3': 'abnormal',
	'7': 'being deleted',
	'9': 'in the recycle bin',
};

/** "abnormal", "being deleted", "creating", "in status 12", "without a status": a host status inside a sentence. */
export function hostStatusPhrase(value: unknown): string {
	const key = codeKey(value);
	if (key === undefined) return 'without a status';
	return HOST_WAIT_FAILURES[key] ?? HOST_WORDS[key]?.toLowerCase() ?? `in status ${key}`;
}

/** One backup status and what it means for a task that watches the backup. */
export interface BackupState {
	name: string;
	/** Whether the backup has left "in progress" for good: a wait ends, the Task Trigger reports it. */
	final: boolean;
	/** For a final state: whether the backup did not end usable (a wait fails, the trigger says "failed"). */
	failure: boolean;
	/** What the state means, as a user reads it in an error or an item. */
	meaning: string;
}

const BACKUP_WORDS = table(BACKUP_STATUS);
const backup = (code: string, final: boolean, failure: boolean, meaning: string): BackupState => ({ name: BACKUP_WORDS[code], final, failure, meaning });

/**
 * Backup `status` (0 in progress, 1 completed, 2 failed, 3 in arrears, 4 recycle bin), the one
 * table the backup wait and the Task Trigger both read.
 *
 * "In arrears" is read as billing uses the word (the balance, arrears): the backup is held
 * because the account owes money. It is not "in progress" (nothing the service will finish by
 * itself) and it is not a usable backup, so it is a final state and a failure: a wait stops with
 * a message to recharge the account, and the trigger reports the backup as failed with status
 * name "In Arrears". The recycle bin (a deleted backup, kept 2 hours) is final and a failure too:
 * a backup watched while in progress that ends there was not seen completed. A status the
 * documentation does not list counts as still in progress (a wait goes on until its timeout).
 */
export const BACKUP_STATES: Record<string, BackupState> = {
	'0': backup('0', false, false, 'in progress'),
	'1': backup('1', true, false, 'completed'),
	'2': backup('2', true, true, 'failed'),
	'3': backup('3', true, true, 'held because the account is in arrears (it owes money)'),
	'4': backup('4', true, true, 'deleted (in the recycle bin)'),
};

/** The status of a backup in arrears, as a code key (a wait then says to recharge the account). */
export const BACKUP_IN_ARREARS = '3';

/** The state of a backup status value (number or string); undefined for a value the documentation does not list. */
export function backupState(value: unknown): BackupState | undefined {
	const key = codeKey(value);
	return key === undefined ? undefined : BACKUP_STATES[key];
}
