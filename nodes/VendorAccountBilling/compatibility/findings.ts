/**
 * The findings of the compatibility check, one function each: from what the reads answered to
 * one item saying what was tried, what the service did and which reading that is. A function
 * that recognises a reading adds its name to `readings` (the dialects of the emulator have the
 * same names).
 */
import type { IDataObject } from 'n8n-workflow';

import { readExpires } from '../../shared/api/auth';
import { CODES, DNS_LINES, lineCode } from '../../shared/api/codes';
import type { Envelope } from '../../shared/api/envelope';
import { serializedList } from '../../shared/api/serialized';
import { tokenRefused } from '../../shared/api/tokens';
import { DOCUMENTED_FIELDS, ENVELOPE_KEYS, OBJECT_KEYS, isObject, numericString, payloadObjects, payloadOf, shown, type Answer, type Finding } from './probe';

type Answers = Array<{ path: string; body: IDataObject }>;

/**
 * What `expires` of the log-in answer is, read as the nodes read it (readExpires): a lifetime in
 * seconds, the time the token ends, or a value the nodes ignore (docs/vendor/readings.md#r32, #r45).
 */
export function tokenLifetime(login: IDataObject, date: unknown, readings: Set<string>): Finding {
	const now = Date.now();
	const expiry = readExpires(login.expires, now, date);
	const lifetime: Finding = {
		check: 'tokenLifetime',
		tried: 'The expires field of the log-in answer (a lifetime in seconds or the time the token ends: the vendor\'s documentation does not say)',
		observed: `expires ${shown(login.expires)}${date ? `, answer dated ${String(date)}` : ''}`,
		reading: '',
		setting: {},
	};
	const life = expiry.endsAt === undefined ? 0 : Math.round((expiry.endsAt - now) / 1000);
	const renews = 'the nodes log in again shortly before it ends (at most a minute before) and whenever the service refuses a token';
	if (expiry.reading === 'none') {
		lifetime.reading = 'No token lifetime given: the nodes log in again whenever the service refuses a token. Nothing to set';
	} else if (expiry.reading === 'ignored') {
		lifetime.reading = `This makes no sense as a lifetime or as a time (${expiry.why}): the nodes ignore it and log in again whenever the service refuses a token. Nothing to set`;
	} else if (expiry.reading === 'timestamp') {
		readings.add('expiresTimestamp');
		lifetime.reading = `expires is the time the token ends (${new Date(expiry.endsAt!).toISOString()}, ${life} s from now), not a lifetime: ${renews}. Nothing to set`;
	} else if (life < 600) {
		readings.add(`tokenLifetime${life}`);
		lifetime.reading = `Tokens live only ${life} s (expires is their lifetime in seconds): ${renews}, so long runs log in often. Nothing to set`;
	} else {
		lifetime.reading = `Tokens live ${life} s (${Math.round(life / 60)} min; expires is their lifetime in seconds): ${renews}. Nothing to set`;
	}
	return lifetime;
}

/** The answer to a made-up token: how the service refuses a token, and whether the nodes know it for that (tokens.ts). */
export function refusedToken(answer: Answer, readings: Set<string>): Finding {
	const body = answer.body ?? {};
	const message = typeof body.message === 'string' ? body.message : '';
	const finding: Finding = {
		check: 'refusedToken',
		tried: 'profile/detail with a made-up token (an expired or revoked token usually gets the same answer)',
		observed: answer.body ? `HTTP ${answer.status ?? '?'}, code ${shown(body.code)}, message ${message ? `"${message}"` : 'none'}` : `no answer: ${answer.problem}`,
		reading: '',
		setting: {},
	};
	if (answer.ok) {
		finding.reading = 'The service accepted a made-up token. Check the API URL: this does not look like the vendor\'s management interface';
	} else if (!answer.body && answer.status !== 401) {
		finding.reading = 'Not checked: the answer was not the JSON envelope';
	} else if (tokenRefused(answer.status ?? 200, answer.body as Envelope | undefined)) {
		const code = Number(body.code);
		if (answer.status !== 401 && code === -1) {
			finding.reading = 'A refused token is answered with code -1: the nodes log in again once and repeat the request. Nothing to set';
		} else {
			readings.add(/[\u3400-\u9fff]/.test(message) ? 'tokenRefusedChinese' : 'tokenRefusedOtherCode');
			finding.reading = `A refused token is answered with ${answer.status === 401 ? 'HTTP 401' : `code ${String(body.code)}`}${message ? ` and "${message}"` : ''}, not with code -1: the nodes know it for a refused token ${answer.status === 401 ? 'by the HTTP status' : 'by its words'}, log in again once and repeat the request. Nothing to set`;
		}
	} else {
		readings.add('tokenRefusedUnrecognised');
		finding.reading = `A refused token is answered with code ${String(body.code)} and "${message}", which the nodes cannot tell from other refusals: they log in again shortly before a token runs out (by expires), but a token the service ends early (a log-in elsewhere as the same user, a password change) makes calls fail with this message until then. No setting changes this: give n8n a user of its own (a sub-account), so that no other log-in ends its tokens`;
		finding.setting = { username: 'a sub-account used by n8n only' };
	}
	return finding;
}

/** Whether the envelope's `code` comes as a number or a string; `codeStrings` counts the strings. */
export function codeType(answers: Answers, readings: Set<string>): { finding: Finding; codeStrings: number } {
	const codes = answers.map((a) => a.body.code);
	const codeStrings = codes.filter((c) => typeof c === 'string').length;
	const finding: Finding = {
		check: 'codeType',
		tried: `The envelope's code in ${answers.length} answers`,
		observed: codeStrings ? `code came as a string in ${codeStrings} of ${codes.length} answers, e.g. ${shown(codes.find((c) => typeof c === 'string'))}` : `code came as a number in all ${codes.length} answers`,
		reading: codeStrings ? 'The envelope writes numbers as strings ("code": "1"); the node compares codes as numbers, so both work' : 'code is a number, as the vendor\'s documentation shows',
	};
	if (codeStrings) readings.add('numbersAsStrings');
	return { finding, codeStrings };
}

/** Whether numbers in records come as numbers or as strings. */
export function numbers(reads: { detail: Answer; balance: Answer; centres: Answer; plans: Answer; lines: Answer }, codeStrings: number, readings: Set<string>): Finding {
	const samples: Array<[string, unknown]> = [];
	if (isObject(payloadOf(reads.detail.body).value)) {
		const d = payloadOf(reads.detail.body).value as IDataObject;
		samples.push(['profile/detail uid', d.uid], ['profile/detail status', d.status]);
		if (isObject(d.balance)) samples.push(['profile/detail balance.price', d.balance.price]);
	}
	const firstBalance = payloadObjects(reads.balance.body)[0];
	if (firstBalance) samples.push(['profile/balance price', firstBalance.price]);
	for (const [path, answer] of [['instance/nodeList', reads.centres], ['dns/planList', reads.plans], ['instance/networkResourceList', reads.lines]] as Array<[string, Answer]>) {
		const row = payloadObjects(answer.body)[0];
		if (row) samples.push([`${path} id`, row.id]);
	}
	const present = samples.filter(([, v]) => typeof v === 'number' || numericString(v));
	const asNumbers = present.filter(([, v]) => typeof v === 'number');
	const finding: Finding = {
		check: 'numbers',
		tried: `Numeric fields of records: ${present.map(([k]) => k).join(', ') || 'none found'}`,
		observed: present.length ? present.map(([k, v]) => `${k} ${shown(v)}`).join('; ') : 'no numeric field in the records read',
		reading: '',
	};
	if (!present.length) finding.reading = 'Nothing to tell; the node reads numbers and numeric strings alike';
	else if (asNumbers.length === present.length) {
		readings.add('numbersAsNumbers');
		finding.reading = 'Numbers come as JSON numbers ("id": 12), not as the strings the vendor\'s documentation shows; the node reads both';
	} else if (asNumbers.length) finding.reading = 'Some numbers come as numbers, some as strings; the node reads both';
	else if (codeStrings) {
		readings.add('numbersAsStrings');
		finding.reading = 'Every number comes as a string, the envelope too ("code": "1", "totalpage": "3"); the node reads them as numbers';
	} else finding.reading = 'Numbers in records come as strings, as the vendor\'s documentation says ("Most numeric values in responses are strings")';
	return finding;
}

/** Whether a paged list tells `totalpage`. */
export function paging(groups: Answer): Finding {
	const finding: Finding = {
		check: 'paging',
		tried: 'profile/groupList with page 1 and limit 1',
		observed: groups.ok
			? `page ${shown(groups.body?.page)}, limit ${shown(groups.body?.limit)}, total ${shown(groups.body?.total)}, totalpage ${shown(groups.body?.totalpage)}, ${payloadObjects(groups.body).length} record(s)`
			: `refused: ${groups.problem}`,
		reading: '',
	};
	if (!groups.ok) finding.reading = 'Not checked (this account may not read groups)';
	else if (groups.body?.totalpage === undefined) finding.reading = 'No totalpage: Return All reads one page only; check the page size the service allows';
	else finding.reading = 'Paged lists tell totalpage; Return All reads every page';
	return finding;
}

/** Whether lists documented under `result` answer there or under `data`. */
export function payloadKey(detail: Answer, memory: Answer, lines: Answer, readings: Set<string>): Finding {
	const where = (path: string, a: Answer) => (a.ok ? `${path} under ${payloadOf(a.body).key}` : `${path}: ${a.problem}`);
	const finding: Finding = {
		check: 'payloadKey',
		tried: 'Where the payload is: profile/detail, instance/memResourceList and instance/networkResourceList (the vendor\'s documentation says the last two answer under result)',
		observed: [where('profile/detail', detail), where('instance/memResourceList', memory), where('instance/networkResourceList', lines)].join('; '),
		reading: '',
	};
	const resultLists = [memory, lines].filter((a) => a.ok).map((a) => payloadOf(a.body).key);
	if (resultLists.some((k) => k === 'data')) {
		readings.add('resultListsUnderData');
		finding.reading = 'Some lists the vendor\'s documentation puts under result answer under data; the node reads either';
	} else finding.reading = 'As the vendor\'s documentation says; the node reads data or result either way';
	return finding;
}

/** How empty objects are written: `{}`, or `[]` (PHP style) where an object belongs. */
export function emptyObjects(answers: Answers, readings: Set<string>): Finding {
	const emptyOnes: string[] = [];
	const arraysForObjects: string[] = [];
	const walk = (value: unknown, path: string, key: string, depth: number) => {
		if (depth > 6) return;
		if (Array.isArray(value)) {
			if (value.length === 0 && (OBJECT_KEYS.has(key) || path.endsWith('profile/detail.data'))) arraysForObjects.push(path);
			value.slice(0, 50).forEach((v, i) => walk(v, `${path}[${i}]`, key, depth + 1));
		} else if (isObject(value)) {
			if (Object.keys(value).length === 0) emptyOnes.push(path);
			for (const [k, v] of Object.entries(value)) walk(v, `${path}.${k}`, k, depth + 1);
		}
	};
	for (const a of answers) walk(a.body, a.path, '', 0);
	const finding: Finding = {
		check: 'emptyObjects',
		tried: `Empty objects in ${answers.length} answers (fields the vendor's documentation describes as objects: ${[...OBJECT_KEYS].join(', ')})`,
		observed: arraysForObjects.length
			? `[] where an object belongs: ${arraysForObjects.slice(0, 5).join(', ')}`
			: emptyOnes.length
				? `{} at ${emptyOnes.slice(0, 5).join(', ')}`
				: 'no empty object in these answers',
		reading: '',
	};
	if (arraysForObjects.length) {
		readings.add('emptyObjectsAsArrays');
		finding.reading = 'Empty objects are written [] (PHP style); the node reads them as empty objects';
	} else if (emptyOnes.length) finding.reading = 'Empty objects are written {}';
	else finding.reading = 'Not seen in this account (it needs e.g. a channel without backup origin); the node reads {} and [] alike';
	return finding;
}

/** Fields the documentation does not list, in the envelopes and in the records read. */
export function extraFields(answers: Answers, readings: Set<string>): Finding {
	const extras = new Set<string>();
	for (const a of answers) {
		for (const k of Object.keys(a.body)) if (!ENVELOPE_KEYS.has(k)) extras.add(`${a.path}: ${k}`);
		const known = DOCUMENTED_FIELDS[a.path];
		if (!known) continue;
		const p = payloadOf(a.body).value;
		const records = Array.isArray(p) ? p.filter(isObject) : isObject(p) ? [p] : [];
		for (const r of records.slice(0, 5)) for (const k of Object.keys(r)) if (!known.includes(k)) extras.add(`${a.path} record: ${k}`);
	}
	const finding: Finding = {
		check: 'extraFields',
		tried: `Fields the vendor's documentation does not list, in the envelopes and in the records of ${Object.keys(DOCUMENTED_FIELDS).join(', ')}`,
		observed: extras.size ? [...extras].slice(0, 12).join(', ') : 'none',
		reading: extras.size ? 'The service adds fields the vendor\'s documentation does not list; the node passes them through and ignores them' : 'Only the fields the vendor\'s documentation lists',
	};
	if (extras.size) readings.add('extraFields');
	return finding;
}

/** How a data center's lines come: row ids against line codes, `linetype` as a code or a name. */
export function lines(answer: Answer, centre: string, readings: Set<string>): Finding {
	const lineRows = payloadObjects(answer.body);
	const finding: Finding = {
		check: 'lines',
		tried: `instance/networkResourceList of data center ${centre || '(none found)'}: row id and linetype`,
		observed: lineRows.length
			? lineRows.slice(0, 8).map((r) => `id ${shown(r.id)} linetype ${shown(r.linetype)}`).join('; ')
			: `no lines: ${answer.problem ?? 'empty list'}`,
		reading: '',
	};
	if (!lineRows.length) {
		finding.reading = 'Not checked; Create Host sends the line code of the chosen line (linetype) as networkid';
		return finding;
	}
	const codesOf = lineRows.map((r) => lineCode(r.linetype));
	const named = lineRows.filter((r) => !/^\d+$/.test(String(r.linetype ?? '').trim()));
	const unknown = lineRows.filter((_, i) => codesOf[i] === undefined);
	const differ = lineRows.some((r, i) => codesOf[i] !== undefined && String(r.id) !== String(codesOf[i]));
	const parts: string[] = [];
	if (named.length) {
		readings.add('lineTypesAsNames');
		parts.push(`linetype is a name, not the code: ${named.filter((r) => lineCode(r.linetype) !== undefined).map((r) => `${String(r.linetype)} = ${lineCode(r.linetype)}`).join(', ') || 'none known'}`);
	}
	if (differ) {
		readings.add('lineIdsDiffer');
		parts.push('row ids are not line codes');
	}
	if (unknown.length) parts.push(`unknown lines (${unknown.map((r) => String(r.linetype)).join(', ')}): choose them By Code`);
	finding.reading = `${parts.length ? `${parts.join('; ')}. ` : 'Row ids are the line codes and linetype is the code. '}Create Host sends the line code (linetype: ${[...new Set(codesOf.filter((c) => c !== undefined))].map((c) => `${c} ${CODES.line[String(c)] ?? ''}`.trim()).join(', ')}) as networkid`;
	return finding;
}

/** How hosts name their line in instance/list (`network` {id, line}): what the simplified host can show. */
export function hostLines(hosts: Answer, readings: Set<string>): Finding {
	const networks = payloadObjects(hosts.body)
		.map((h) => (isObject(h.network) ? h.network : undefined))
		.filter((n): n is IDataObject => n !== undefined);
	const finding: Finding = {
		check: 'hostLines',
		tried: 'instance/list: the network {id, line} of each host',
		observed: hosts.ok ? (networks.length ? networks.slice(0, 8).map((n) => `id ${shown(n.id)} line ${shown(n.line)}`).join('; ') : 'no host') : `refused: ${hosts.problem}`,
		reading: '',
		setting: {},
	};
	if (!networks.length) {
		finding.reading = 'Not checked (no host, or this account may not list hosts). Nothing to set';
		return finding;
	}
	const unknown = [...new Set(networks.filter((n) => lineCode(n.line) === undefined).map((n) => String(n.line ?? '')))];
	const rowIds = networks.some((n) => lineCode(n.line) !== undefined && String(n.id) !== String(lineCode(n.line)));
	if (unknown.length) readings.add('hostLineWords');
	if (rowIds) readings.add('lineIdsDiffer');
	finding.reading = `${
		unknown.length
			? `Hosts name some lines in words the nodes do not know (${unknown.join(', ')}): the simplified host shows that word as it came and no line code. `
			: 'Hosts name their lines in words the nodes know: the simplified host shows the line and its code. '
	}${rowIds ? 'network.id is not the line code (it is the id of a line row); the nodes never read it as one. ' : ''}Nothing to set`;
	return finding;
}

/** The lines of a domain's DNS records (the documents name none): what Record > Add should send. */
export function recordLines(domain: string, records: Answer, readings: Set<string>): Finding {
	const rows = payloadObjects(records.body);
	const lines = new Map<string, string>();
	for (const r of rows) if (r.recordline !== undefined) lines.set(String(r.recordline), String(r.locale ?? ''));
	const finding: Finding = {
		check: 'recordLines',
		tried: `dns/recordList of ${domain || '(no domain found)'}: the line of each record`,
		observed: records.ok ? (lines.size ? [...lines].map(([line, name]) => `${JSON.stringify(line)}${name && name !== line ? ` (${name})` : ''}`).join(', ') : 'no record') : `not read: ${records.problem}`,
		reading: '',
		setting: {},
	};
	const usual = new Set(DNS_LINES.map((o) => String(o.value)));
	const own = [...lines.keys()].filter((l) => !usual.has(l));
	if (!lines.size) finding.reading = 'Not checked (no domain with records). Leave Line at Not Set in Record > Add and the service chooses the line. Nothing to set';
	else if (own.length) {
		readings.add('dnsLinesOwn');
		finding.reading = `The service names record lines its own way (${own.join(', ')}): in Record > Add enter one of these as the Line (an expression), or leave Line at Not Set and the service chooses. Nothing to set`;
	} else finding.reading = `Record lines seen: ${[...lines.keys()].join(', ')}. Leave Line at Not Set in Record > Add and the service chooses, or pick one. Nothing to set`;
	return finding;
}

/**
 * Which path unbinds a cloud disk (docs/vendor/readings.md#r60): `instance/unbind` asked with no
 * disk. A service that has the endpoint refuses the request in its envelope (no disk named,
 * nothing done); one that has not answers HTTP 404, and Cloud Disk > Detach then uses the path of
 * the documentation's example, `instance/cloudDiskBind` without a host.
 */
export function unbindPath(answer: Answer, readings: Set<string>): Finding {
	const body = answer.body;
	const finding: Finding = {
		check: 'unbindPath',
		tried: 'instance/unbind naming no disk (the vendor\'s documentation shows the unbind operation only through the path of cloudDiskBind, "a distinct path of it: not shown")',
		observed: body ? `HTTP ${answer.status ?? '?'}, code ${shown(body.code)}, message ${typeof body.message === 'string' && body.message ? `"${body.message}"` : 'none'}` : `HTTP ${answer.status ?? '?'}: ${answer.problem}`,
		reading: '',
		setting: {},
	};
	if (answer.status === 404) {
		readings.add('unbindOnBindPath');
		finding.reading = 'The service has no instance/unbind: Cloud Disk > Detach unbinds through instance/cloudDiskBind without a host, as the documentation\'s example does (it asks instance/unbind once per run first). Nothing to set';
	} else if (body) finding.reading = 'The service has instance/unbind (it answered in its envelope): Cloud Disk > Detach uses it. Nothing to set';
	else finding.reading = 'Not checked (no answer); Cloud Disk > Detach asks instance/unbind and, on HTTP 404, instance/cloudDiskBind without a host. Nothing to set';
	return finding;
}

/** What a restore or roll back answers as `id` cannot be seen by reading; the nodes do not depend on it. */
export function restoreAnswers(): Finding {
	return {
		check: 'restoreAnswers',
		tried: 'Nothing: only a restore or a roll back shows whether its answer\'s id is the host\'s or the backup\'s, and this check changes nothing',
		observed: 'not checked',
		reading:
			'Either way works: with Wait Until Running the nodes wait on the host the answer names as the instance (instance_id), else on the host of the backup or snapshot as listed; never on an id that may be the backup\'s. Nothing to set',
		setting: {},
	};
}

/** The notification methods the DNS plans offer downtime monitors (`monitor_notice`). */
export function notifyMethods(plans: Answer): Finding {
	const planRows = payloadObjects(plans.body);
	const methods = new Set<string>();
	for (const p of planRows) for (const m of serializedList(p.monitor_notice)) methods.add(m);
	const sample = planRows.map((p) => p.monitor_notice).find((v) => serializedList(v).length) ?? planRows[0]?.monitor_notice;
	return {
		check: 'notifyMethods',
		tried: 'dns/planList: monitor_notice of each plan',
		observed: plans.ok ? `${planRows.length} plans; monitor_notice e.g. ${shown(typeof sample === 'string' ? sample : JSON.stringify(sample))}` : `refused: ${plans.problem}`,
		reading: plans.ok
			? methods.size
				? `Downtime monitors can notify by: ${[...methods].join(', ')} (the Notification Method of a monitor); addresses go in Other E-Mails and Other Phones`
				: 'No plan offers a notification method'
			: 'Not checked (this account may not read DNS plans)',
	};
}

/** The last item: every check made, the readings found and the credential settings to use. */
export function summary(findings: Finding[], readings: Set<string>, settings: IDataObject, message: string): IDataObject {
	return {
		check: 'summary',
		tried: `${findings.length} checks: reads and log-ins only`,
		observed: findings.map((f) => f.check).join(', '),
		reading: message,
		readings: [...readings],
		setting: settings,
	};
}
