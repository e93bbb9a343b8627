/**
 * The findings of the compatibility check, one function each: from what the reads answered to
 * one item saying what was tried, what the service did and which reading that is. A function
 * that recognises a reading adds its name to `readings` (the dialects of the emulator have the
 * same names).
 */
import type { IDataObject } from 'n8n-workflow';

import { CODES, lineCode } from '../../shared/api/codes';
import { serializedList } from '../../shared/api/serialized';
import { DOCUMENTED_FIELDS, ENVELOPE_KEYS, OBJECT_KEYS, isObject, numericString, payloadObjects, payloadOf, shown, type Answer, type Finding } from './probe';

type Answers = Array<{ path: string; body: IDataObject }>;

/** How long a token lives, from the log-in answer's `expires`. */
export function tokenLifetime(login: IDataObject, readings: Set<string>): Finding {
	const expires = Number(login.expires);
	const lifetime: Finding = {
		check: 'tokenLifetime',
		tried: 'The expires field of the log-in answer',
		observed: `expires ${shown(login.expires)}`,
		reading: '',
	};
	if (!Number.isFinite(expires) || expires <= 0) {
		lifetime.reading = 'No token lifetime given; the node logs in again whenever the service refuses a token (code -1)';
	} else if (expires < 600) {
		readings.add(`tokenLifetime${expires}`);
		lifetime.reading = `Tokens live only ${expires} s: the node logs in again when the service refuses a token (code -1) and repeats the request once, so long runs log in often`;
	} else {
		lifetime.reading = `Tokens live ${expires} s (${Math.round(expires / 60)} min); the node logs in again when the service refuses one`;
	}
	return lifetime;
}

/** Whether the envelope's `code` comes as a number or a string; `codeStrings` counts the strings. */
export function codeType(answers: Answers, readings: Set<string>): { finding: Finding; codeStrings: number } {
	const codes = answers.map((a) => a.body.code);
	const codeStrings = codes.filter((c) => typeof c === 'string').length;
	const finding: Finding = {
		check: 'codeType',
		tried: `The envelope's code in ${answers.length} answers`,
		observed: codeStrings ? `code came as a string in ${codeStrings} of ${codes.length} answers, e.g. ${shown(codes.find((c) => typeof c === 'string'))}` : `code came as a number in all ${codes.length} answers`,
		reading: codeStrings ? 'The envelope writes numbers as strings ("code": "1"); the node compares codes as numbers, so both work' : 'code is a number, as the seed shows',
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
		finding.reading = 'Numbers come as JSON numbers ("id": 12), not as the strings the seed shows; the node reads both';
	} else if (asNumbers.length) finding.reading = 'Some numbers come as numbers, some as strings; the node reads both';
	else if (codeStrings) {
		readings.add('numbersAsStrings');
		finding.reading = 'Every number comes as a string, the envelope too ("code": "1", "totalpage": "3"); the node reads them as numbers';
	} else finding.reading = 'Numbers in records come as strings, as the seed says ("Most numeric values in responses are strings")';
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
		tried: 'Where the payload is: profile/detail, instance/memResourceList and instance/networkResourceList (the seed says the last two answer under result)',
		observed: [where('profile/detail', detail), where('instance/memResourceList', memory), where('instance/networkResourceList', lines)].join('; '),
		reading: '',
	};
	const resultLists = [memory, lines].filter((a) => a.ok).map((a) => payloadOf(a.body).key);
	if (resultLists.some((k) => k === 'data')) {
		readings.add('resultListsUnderData');
		finding.reading = 'Some lists the seed puts under result answer under data; the node reads either';
	} else finding.reading = 'As the seed says; the node reads data or result either way';
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
		tried: `Empty objects in ${answers.length} answers (fields the seed describes as objects: ${[...OBJECT_KEYS].join(', ')})`,
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
		tried: `Fields the seeds do not list, in the envelopes and in the records of ${Object.keys(DOCUMENTED_FIELDS).join(', ')}`,
		observed: extras.size ? [...extras].slice(0, 12).join(', ') : 'none',
		reading: extras.size ? 'The service adds fields the seeds do not list; the node passes them through and ignores them' : 'Only the fields the seeds list',
	};
	if (extras.size) readings.add('extraFields');
	return finding;
}

/** How a data centre's lines come: row ids against line codes, `linetype` as a code or a name. */
export function lines(answer: Answer, centre: string, readings: Set<string>): Finding {
	const lineRows = payloadObjects(answer.body);
	const finding: Finding = {
		check: 'lines',
		tried: `instance/networkResourceList of data centre ${centre || '(none found)'}: row id and linetype`,
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
