/**
 * Account > Check Compatibility: reads the service to find which reading of the seeds it
 * follows where they leave a choice open (DECISIONS, "Readings the seeds leave open"), and
 * reports one item per finding: what was tried, what the service did, which reading that is.
 *
 * Only reads are made, each with a fresh token of its own (so the answers are seen as they
 * come, before any renewal), plus two log-ins: one for the reads, and a second one to see
 * whether a new log-in ends the earlier token. Log-ins change nothing on the account, but on a
 * service where a new log-in ends earlier tokens, the credential's stored token is ended too
 * (the node then logs in again by itself). No token or password is ever in the output.
 */
import type { ICredentialDataDecryptedObject, IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import { API_CREDENTIAL, apiBaseUrl, authorize } from '../../shared/api/auth';
import type { OperationContext } from '../../shared/api/declarations';
import { CODES, lineCode } from '../../shared/api/codes';
import { serializedList } from '../../shared/api/serialized';

interface Finding extends IDataObject {
	check: string;
	tried: string;
	observed: string;
	reading: string;
}

type Http = (options: IHttpRequestOptions) => Promise<unknown>;

interface Answer {
	ok: boolean;
	status?: number;
	body?: IDataObject;
	problem?: string;
}

const ENCODINGS = ['none', 'md5', 'base64'];

/** Envelope fields the seeds name (code, message, payload, paging, log-in). */
const ENVELOPE_KEYS = new Set(['code', 'message', 'data', 'result', 'created', 'limit', 'page', 'total', 'totalpage', 'access_token', 'expires']);

/** Record fields the seeds list, per answer read here (seed 001 section 2, seed 002 section 2). */
const SEED_FIELDS: Record<string, string[]> = {
	'profile/detail': ['uid', 'name', 'mail', 'status', 'profile', 'balance', 'couponprice', 'subaccounts'],
	'profile/balance': ['price'],
	'profile/groupList': ['id', 'uid', 'name', 'note', 'created', 'username', 'created_ago'],
	'instance/nodeList': ['id', 'areaname', 'status'],
	'instance/networkResourceList': ['id', 'linetype', 'node', 'status'],
	'dns/planList': [
		'id', 'group', 'name', 'price', 'auth', 'strategy', 'enable_strategy', 'strategy_num', 'strategy_template_num', 'record_num',
		'monitor_num', 'monitor_retry', 'monitor_interval', 'monitor_notice', 'createtime', 'createtime_ago',
	],
};

/** Keys whose value the seeds describe as an object (so `[]` there is an empty object written PHP style). */
const OBJECT_KEYS = new Set(['profile', 'balance', 'node', 'group', 'auth', 'ip', 'originback', 'cpu', 'mem', 'image', 'network', 'firewall', 'net', 'instance', 'plan']);

/** How a value came: `1 (a number)`, `"1" (a string)`. */
function shown(v: unknown): string {
	if (v === undefined) return 'absent';
	if (typeof v === 'string') return `"${v.length > 40 ? `${v.slice(0, 40)}…` : v}" (a string)`;
	if (typeof v === 'number') return `${v} (a number)`;
	if (Array.isArray(v)) return v.length ? 'an array' : '[] (an empty array)';
	if (v === null) return 'null';
	return typeof v === 'object' ? (Object.keys(v).length ? 'an object' : '{} (an empty object)') : `${String(v)} (${typeof v})`;
}

const numericString = (v: unknown) => typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim());
const isObject = (v: unknown): v is IDataObject => typeof v === 'object' && v !== null && !Array.isArray(v);

function payloadOf(body: IDataObject | undefined): { key: string; value: unknown } {
	if (!body) return { key: 'none', value: undefined };
	if (body.data !== undefined) return { key: 'data', value: body.data };
	if (body.result !== undefined) return { key: 'result', value: body.result };
	return { key: 'none', value: undefined };
}

/** The objects of an answer's payload when it is a list (none otherwise). */
const payloadObjects = (body: IDataObject | undefined): IDataObject[] => {
	const p = payloadOf(body).value;
	return Array.isArray(p) ? (p.filter(isObject) as IDataObject[]) : [];
};

export async function checkCompatibility(ctx: OperationContext): Promise<IDataObject[]> {
	const fn = ctx.fn;
	const credentials = await fn.getCredentials(API_CREDENTIAL);
	const base = apiBaseUrl(credentials);
	const username = String(credentials.username ?? '');
	const http: Http = async (options) => await fn.helpers.httpRequest(options);
	const findings: Finding[] = [];
	const readings = new Set<string>();
	const answers: Array<{ path: string; body: IDataObject }> = [];

	/** One log-in through the credential's own helper; the raw answer is kept for its shape only. */
	const logIn = async (creds: ICredentialDataDecryptedObject) => {
		let raw: unknown;
		const result = await authorize(async (o) => {
			raw = await http(o);
			return raw;
		}, creds);
		// authorize() asks for the full response: the envelope is its body (a string when not JSON)
		let body = isObject(raw) && 'statusCode' in raw ? raw.body : raw;
		if (typeof body === 'string') {
			try {
				body = JSON.parse(body) as unknown;
			} catch {
				body = undefined;
			}
		}
		return { result, raw: isObject(body) ? body : undefined };
	};

	/** One read with a given token, the answer as it came (no renewal, no retry). */
	const read = async (path: string, token: string, body: IDataObject = {}): Promise<Answer> => {
		try {
			const response = (await http({
				method: 'POST',
				url: `${base}/API/${path}`,
				headers: { 'Content-Type': 'application/json; charset=utf-8', Accept: 'application/json' },
				body: { ...body, token },
				json: true,
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
				timeout: 30000,
			})) as { statusCode: number; body: unknown };
			if (!isObject(response.body)) return { ok: false, status: response.statusCode, problem: `HTTP ${response.statusCode} without a JSON envelope` };
			const envelope = response.body;
			answers.push({ path, body: envelope });
			if (Number(envelope.code) !== 1) {
				return { ok: false, status: response.statusCode, body: envelope, problem: `code ${shown(envelope.code)}: ${String(envelope.message ?? 'no message')}` };
			}
			return { ok: true, status: response.statusCode, body: envelope };
		} catch (error) {
			return { ok: false, problem: (error as Error).message };
		}
	};

	// ------------------------------------------------------------------ log in
	const configured = ENCODINGS.includes(String(credentials.loginEncoding)) ? String(credentials.loginEncoding) : 'none';
	let encoding = configured;
	let first = await logIn(credentials);
	if (!first.result.ok) {
		// the configured encoding is refused: try the others (log-ins only, nothing changes)
		for (const other of ENCODINGS.filter((e) => e !== configured)) {
			const attempt = await logIn({ ...credentials, loginEncoding: other });
			if (attempt.result.ok) {
				first = attempt;
				encoding = other;
				break;
			}
		}
	}
	const settings: IDataObject = { apiUrl: base, username, loginEncoding: encoding };
	if (!first.result.ok) {
		findings.push({
			check: 'logIn',
			tried: `OAuth/authorize as "${username}" with each password encoding (${ENCODINGS.join(', ')})`,
			observed: first.result.message,
			reading: 'The log-in is refused or the API cannot be reached, so nothing else can be checked',
			setting: { apiUrl: base, username },
		});
		return [...findings, summary(findings, readings, { apiUrl: base, username }, 'Log-in failed: check the API URL, the username and the password')];
	}
	const token1 = first.result.token;
	const login = first.raw ?? {};
	const extraLoginKeys = Object.keys(login).filter((k) => !ENVELOPE_KEYS.has(k));
	findings.push({
		check: 'logIn',
		tried: `OAuth/authorize as "${username}" with password encoding ${encoding}`,
		observed: `code ${shown(login.code)}, expires ${shown(login.expires)}, an access token (not shown)${extraLoginKeys.length ? `, further fields: ${extraLoginKeys.join(', ')}` : ''}`,
		reading:
			encoding === configured
				? 'Log-in works with the credential as it is'
				: `Log-in works only with the password encoding ${encoding}; set it in the credential`,
		setting: { loginEncoding: encoding },
	});

	// ------------------------------------------------------------------ token lifetime
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
	findings.push(lifetime);

	// ------------------------------------------------------------------ reads with the first token
	const detail = await read('profile/detail', token1);
	const balance = await read('profile/balance', token1);
	const groups = await read('profile/groupList', token1, { page: 1, limit: 1 });
	const plans = await read('dns/planList', token1, { page: 1, limit: 30 });
	const centres = await read('instance/nodeList', token1);
	const memory = await read('instance/memResourceList', token1);
	// lists whose records hold objects (origins, firewall, network): where empty objects show
	await read('cdn/domainList', token1, { page: 1, limit: 30 });
	await read('instance/list', token1, { page: 1, limit: 30 });
	let lines: Answer = { ok: false, problem: 'no data centre to ask' };
	let linesCentre = '';
	for (const centre of payloadObjects(centres.body).slice(0, 6)) {
		const answer = await read('instance/networkResourceList', token1, { nodeid: Number(centre.id) });
		if (answer.ok && payloadObjects(answer.body).length) {
			lines = answer;
			linesCentre = `${String(centre.areaname ?? '')} (${String(centre.id)})`;
			break;
		}
		lines = answer;
	}

	// ------------------------------------------------------------------ the envelope's code
	const codes = answers.map((a) => a.body.code);
	const codeStrings = codes.filter((c) => typeof c === 'string').length;
	const code: Finding = {
		check: 'codeType',
		tried: `The envelope's code in ${answers.length} answers`,
		observed: codeStrings ? `code came as a string in ${codeStrings} of ${codes.length} answers, e.g. ${shown(codes.find((c) => typeof c === 'string'))}` : `code came as a number in all ${codes.length} answers`,
		reading: codeStrings ? 'The envelope writes numbers as strings ("code": "1"); the node compares codes as numbers, so both work' : 'code is a number, as the seed shows',
	};
	if (codeStrings) readings.add('numbersAsStrings');
	findings.push(code);

	// ------------------------------------------------------------------ numbers in records
	const samples: Array<[string, unknown]> = [];
	if (isObject(payloadOf(detail.body).value)) {
		const d = payloadOf(detail.body).value as IDataObject;
		samples.push(['profile/detail uid', d.uid], ['profile/detail status', d.status]);
		if (isObject(d.balance)) samples.push(['profile/detail balance.price', d.balance.price]);
	}
	const firstBalance = payloadObjects(balance.body)[0];
	if (firstBalance) samples.push(['profile/balance price', firstBalance.price]);
	for (const [path, answer] of [['instance/nodeList', centres], ['dns/planList', plans], ['instance/networkResourceList', lines]] as Array<[string, Answer]>) {
		const row = payloadObjects(answer.body)[0];
		if (row) samples.push([`${path} id`, row.id]);
	}
	const present = samples.filter(([, v]) => typeof v === 'number' || numericString(v));
	const asNumbers = present.filter(([, v]) => typeof v === 'number');
	const numbers: Finding = {
		check: 'numbers',
		tried: `Numeric fields of records: ${present.map(([k]) => k).join(', ') || 'none found'}`,
		observed: present.length ? present.map(([k, v]) => `${k} ${shown(v)}`).join('; ') : 'no numeric field in the records read',
		reading: '',
	};
	if (!present.length) numbers.reading = 'Nothing to tell; the node reads numbers and numeric strings alike';
	else if (asNumbers.length === present.length) {
		readings.add('numbersAsNumbers');
		numbers.reading = 'Numbers come as JSON numbers ("id": 12), not as the strings the seed shows; the node reads both';
	} else if (asNumbers.length) numbers.reading = 'Some numbers come as numbers, some as strings; the node reads both';
	else if (codeStrings) {
		readings.add('numbersAsStrings');
		numbers.reading = 'Every number comes as a string, the envelope too ("code": "1", "totalpage": "3"); the node reads them as numbers';
	} else numbers.reading = 'Numbers in records come as strings, as the seed says ("Most numeric values in responses are strings")';
	findings.push(numbers);

	// ------------------------------------------------------------------ paging
	const paging: Finding = {
		check: 'paging',
		tried: 'profile/groupList with page 1 and limit 1',
		observed: groups.ok
			? `page ${shown(groups.body?.page)}, limit ${shown(groups.body?.limit)}, total ${shown(groups.body?.total)}, totalpage ${shown(groups.body?.totalpage)}, ${payloadObjects(groups.body).length} record(s)`
			: `refused: ${groups.problem}`,
		reading: '',
	};
	if (!groups.ok) paging.reading = 'Not checked (this account may not read groups)';
	else if (groups.body?.totalpage === undefined) paging.reading = 'No totalpage: Return All reads one page only; check the page size the service allows';
	else paging.reading = 'Paged lists tell totalpage; Return All reads every page';
	findings.push(paging);

	// ------------------------------------------------------------------ data or result
	const where = (path: string, a: Answer) => (a.ok ? `${path} under ${payloadOf(a.body).key}` : `${path}: ${a.problem}`);
	const payloadKeys: Finding = {
		check: 'payloadKey',
		tried: 'Where the payload is: profile/detail, instance/memResourceList and instance/networkResourceList (the seed says the last two answer under result)',
		observed: [where('profile/detail', detail), where('instance/memResourceList', memory), where('instance/networkResourceList', lines)].join('; '),
		reading: '',
	};
	const resultLists = [memory, lines].filter((a) => a.ok).map((a) => payloadOf(a.body).key);
	if (resultLists.some((k) => k === 'data')) {
		readings.add('resultListsUnderData');
		payloadKeys.reading = 'Some lists the seed puts under result answer under data; the node reads either';
	} else payloadKeys.reading = 'As the seed says; the node reads data or result either way';
	findings.push(payloadKeys);

	// ------------------------------------------------------------------ empty objects
	const emptyObjects: string[] = [];
	const arraysForObjects: string[] = [];
	const walk = (value: unknown, path: string, key: string, depth: number) => {
		if (depth > 6) return;
		if (Array.isArray(value)) {
			if (value.length === 0 && (OBJECT_KEYS.has(key) || path.endsWith('profile/detail.data'))) arraysForObjects.push(path);
			value.slice(0, 50).forEach((v, i) => walk(v, `${path}[${i}]`, key, depth + 1));
		} else if (isObject(value)) {
			if (Object.keys(value).length === 0) emptyObjects.push(path);
			for (const [k, v] of Object.entries(value)) walk(v, `${path}.${k}`, k, depth + 1);
		}
	};
	for (const a of answers) walk(a.body, a.path, '', 0);
	const empty: Finding = {
		check: 'emptyObjects',
		tried: `Empty objects in ${answers.length} answers (fields the seed describes as objects: ${[...OBJECT_KEYS].join(', ')})`,
		observed: arraysForObjects.length
			? `[] where an object belongs: ${arraysForObjects.slice(0, 5).join(', ')}`
			: emptyObjects.length
				? `{} at ${emptyObjects.slice(0, 5).join(', ')}`
				: 'no empty object in these answers',
		reading: '',
	};
	if (arraysForObjects.length) {
		readings.add('emptyObjectsAsArrays');
		empty.reading = 'Empty objects are written [] (PHP style); the node reads them as empty objects';
	} else if (emptyObjects.length) empty.reading = 'Empty objects are written {}';
	else empty.reading = 'Not seen in this account (it needs e.g. a channel without backup origin); the node reads {} and [] alike';
	findings.push(empty);

	// ------------------------------------------------------------------ unknown fields
	const extras = new Set<string>();
	for (const a of answers) {
		for (const k of Object.keys(a.body)) if (!ENVELOPE_KEYS.has(k)) extras.add(`${a.path}: ${k}`);
		const known = SEED_FIELDS[a.path];
		if (!known) continue;
		const p = payloadOf(a.body).value;
		const records = Array.isArray(p) ? p.filter(isObject) : isObject(p) ? [p] : [];
		for (const r of records.slice(0, 5)) for (const k of Object.keys(r)) if (!known.includes(k)) extras.add(`${a.path} record: ${k}`);
	}
	const extraFinding: Finding = {
		check: 'extraFields',
		tried: `Fields the seeds do not list, in the envelopes and in the records of ${Object.keys(SEED_FIELDS).join(', ')}`,
		observed: extras.size ? [...extras].slice(0, 12).join(', ') : 'none',
		reading: extras.size ? 'The service adds fields the seeds do not list; the node passes them through and ignores them' : 'Only the fields the seeds list',
	};
	if (extras.size) readings.add('extraFields');
	findings.push(extraFinding);

	// ------------------------------------------------------------------ lines
	const lineRows = payloadObjects(lines.body);
	const lineFinding: Finding = {
		check: 'lines',
		tried: `instance/networkResourceList of data centre ${linesCentre || '(none found)'}: row id and linetype`,
		observed: lineRows.length
			? lineRows.slice(0, 8).map((r) => `id ${shown(r.id)} linetype ${shown(r.linetype)}`).join('; ')
			: `no lines: ${lines.problem ?? 'empty list'}`,
		reading: '',
	};
	if (!lineRows.length) lineFinding.reading = 'Not checked; Create Host sends the line code of the chosen line (linetype) as networkid';
	else {
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
		lineFinding.reading = `${parts.length ? `${parts.join('; ')}. ` : 'Row ids are the line codes and linetype is the code. '}Create Host sends the line code (linetype: ${[...new Set(codesOf.filter((c) => c !== undefined))].map((c) => `${c} ${CODES.line[String(c)] ?? ''}`.trim()).join(', ')}) as networkid`;
	}
	findings.push(lineFinding);

	// ------------------------------------------------------------------ DNS notification methods
	const planRows = payloadObjects(plans.body);
	const methods = new Set<string>();
	for (const p of planRows) for (const m of serializedList(p.monitor_notice)) methods.add(m);
	const sample = planRows.map((p) => p.monitor_notice).find((v) => serializedList(v).length) ?? planRows[0]?.monitor_notice;
	findings.push({
		check: 'notifyMethods',
		tried: 'dns/planList: monitor_notice of each plan',
		observed: plans.ok ? `${planRows.length} plans; monitor_notice e.g. ${shown(typeof sample === 'string' ? sample : JSON.stringify(sample))}` : `refused: ${plans.problem}`,
		reading: plans.ok
			? methods.size
				? `Downtime monitors can notify by: ${[...methods].join(', ')} (the Notification Method of a monitor); addresses go in Other E-Mails and Other Phones`
				: 'No plan offers a notification method'
			: 'Not checked (this account may not read DNS plans)',
	});

	// ------------------------------------------------------------------ a second log-in
	const before = detail.ok;
	const second = await logIn({ ...credentials, loginEncoding: encoding });
	const again = second.result.ok ? await read('profile/detail', token1) : { ok: false, problem: 'second log-in refused' };
	const fresh = second.result.ok ? await read('profile/detail', second.result.token) : undefined;
	const session: Finding = {
		check: 'secondLogIn',
		tried: 'Log in a second time, then read profile/detail with the first token',
		observed: !second.result.ok
			? `the second log-in was refused: ${second.result.message}`
			: `first token before: ${before ? 'accepted' : 'refused'}; after the second log-in: ${again.ok ? 'accepted' : `refused (${again.problem})`}; new token: ${fresh?.ok ? 'accepted' : 'refused'}`,
		reading: '',
	};
	if (second.result.ok && before && !again.ok && Number(again.body?.code) === -1) {
		readings.add('loginInvalidates');
		session.reading =
			'A new log-in ends the earlier tokens of the account: other programs (or other n8n credentials) logged in as the same user log each other out. The node logs in again once per refusal; give n8n a sub-account of its own';
		session.setting = { username: 'a sub-account used by n8n only' };
	} else if (second.result.ok && again.ok) session.reading = 'Tokens of several log-ins stay valid side by side';
	else session.reading = 'Could not tell (see observed)';
	findings.push(session);

	const message = readings.size
		? `This service follows these readings: ${[...readings].join(', ')}. The node reads all of them; use the credential settings given.`
		: 'This service answers as the seeds show and as the node reads by default; use the credential settings given.';
	return [...findings, summary(findings, readings, settings, message)];
}

function summary(findings: Finding[], readings: Set<string>, settings: IDataObject, message: string): IDataObject {
	return {
		check: 'summary',
		tried: `${findings.length} checks: reads and log-ins only`,
		observed: findings.map((f) => f.check).join(', '),
		reading: message,
		readings: [...readings],
		setting: settings,
	};
}
