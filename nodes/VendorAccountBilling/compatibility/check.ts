/**
 * Account > Check Compatibility: reads the service to find which reading of the documentation it
 * follows where the documentation leaves a choice open (the readings the emulator plays as
 * dialects), and reports one item per finding (findings.ts): what was tried, what the service
 * did, which reading that is.
 *
 * Only reads are made, each with a fresh token of its own (so the answers are seen as they
 * come, before any renewal), plus one instance/unbind that names no disk (to see whether the
 * endpoint exists: it is refused, or unknown, and changes nothing) and two log-ins: one for the reads, and a second one to see
 * whether a new log-in ends the earlier token. Log-ins change nothing on the account, but on a
 * service where a new log-in ends earlier tokens, the credential's stored token is ended too
 * (the node then logs in again by itself). No token or password is ever in the output.
 */
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { API_CREDENTIAL, apiBaseUrl } from '../../shared/api/auth';
import type { OperationContext } from '../../shared/api/declarations';
import type { Envelope } from '../../shared/api/envelope';
import { tokenRefused } from '../../shared/api/tokens';
import { codeType, emptyObjects, extraFields, hostLines, lines, notifyMethods, numbers, paging, payloadKey, recordLines, refusedToken, restoreAnswers, summary, tokenLifetime, unbindPath } from './findings';
import { ENCODINGS, ENVELOPE_KEYS, Probe, payloadObjects, shown, type Answer, type Finding } from './probe';

/** The first log-in: with the credential's password encoding, else with each of the others. */
async function firstLogIn(probe: Probe, credentials: ICredentialDataDecryptedObject) {
	const configured = ENCODINGS.includes(String(credentials.loginEncoding)) ? String(credentials.loginEncoding) : 'none';
	let encoding = configured;
	let first = await probe.logIn(credentials);
	if (!first.result.ok) {
		// the configured encoding is refused: try the others (log-ins only, nothing changes)
		for (const other of ENCODINGS.filter((e) => e !== configured)) {
			const attempt = await probe.logIn({ ...credentials, loginEncoding: other });
			if (attempt.result.ok) {
				first = attempt;
				encoding = other;
				break;
			}
		}
	}
	return { first, configured, encoding };
}

/** The reads every finding works from, all with the first token. */
async function readSamples(probe: Probe, token: string) {
	const detail = await probe.read('profile/detail', token);
	const balance = await probe.read('profile/balance', token);
	const groups = await probe.read('profile/groupList', token, { page: 1, limit: 1 });
	const plans = await probe.read('dns/planList', token, { page: 1, limit: 30 });
	const centres = await probe.read('instance/nodeList', token);
	const memory = await probe.read('instance/memResourceList', token);
	// lists whose records hold objects (origins, firewall, network): where empty objects show
	await probe.read('cdn/domainList', token, { page: 1, limit: 30 });
	const hosts = await probe.read('instance/list', token, { page: 1, limit: 30 });
	// the lines of DNS records: those of the first domain that has records
	let records: Answer = { ok: false, problem: 'no domain to ask' };
	let recordsDomain = '';
	const domains = await probe.read('dns/domainList', token, { page: 1, limit: 30 });
	for (const d of payloadObjects(domains.body).slice(0, 3)) {
		records = await probe.read('dns/recordList', token, { did: Number(d.id), page: 1, limit: 100 });
		recordsDomain = String(d.name ?? d.id);
		if (payloadObjects(records.body).length) break;
	}
	let lineAnswer: Answer = { ok: false, problem: 'no data center to ask' };
	let linesCentre = '';
	for (const centre of payloadObjects(centres.body).slice(0, 6)) {
		const answer = await probe.read('instance/networkResourceList', token, { nodeid: Number(centre.id) });
		if (answer.ok && payloadObjects(answer.body).length) {
			lineAnswer = answer;
			linesCentre = `${String(centre.areaname ?? '')} (${String(centre.id)})`;
			break;
		}
		lineAnswer = answer;
	}
	return { detail, balance, groups, plans, centres, memory, lines: lineAnswer, linesCentre, hosts, records, recordsDomain };
}

/** A second log-in, then the first token again: whether a log-in ends the earlier tokens. */
async function secondLogIn(probe: Probe, credentials: ICredentialDataDecryptedObject, encoding: string, token: string, before: boolean, readings: Set<string>): Promise<Finding> {
	const second = await probe.logIn({ ...credentials, loginEncoding: encoding });
	const again = second.result.ok ? await probe.read('profile/detail', token) : { ok: false, problem: 'second log-in refused' };
	const fresh = second.result.ok ? await probe.read('profile/detail', second.result.token) : undefined;
	const session: Finding = {
		check: 'secondLogIn',
		tried: 'Log in a second time, then read profile/detail with the first token',
		observed: !second.result.ok
			? `the second log-in was refused: ${second.result.message}`
			: `first token before: ${before ? 'accepted' : 'refused'}; after the second log-in: ${again.ok ? 'accepted' : `refused (${again.problem})`}; new token: ${fresh?.ok ? 'accepted' : 'refused'}`,
		reading: '',
	};
	if (second.result.ok && before && !again.ok && tokenRefused((again as Answer).status ?? 200, (again as Answer).body as Envelope | undefined)) {
		readings.add('loginInvalidates');
		session.reading =
			'A new log-in ends the earlier tokens of the account: other programs (or other n8n credentials) logged in as the same user log each other out. The node logs in again once per refusal; give n8n a sub-account of its own';
		session.setting = { username: 'a sub-account used by n8n only' };
	} else if (second.result.ok && again.ok) session.reading = 'Tokens of several log-ins stay valid side by side';
	else session.reading = 'Could not tell (see observed)';
	return session;
}

export async function checkCompatibility(ctx: OperationContext): Promise<IDataObject[]> {
	const fn = ctx.fn;
	const credentials = await fn.getCredentials(API_CREDENTIAL);
	const base = apiBaseUrl(credentials);
	const username = String(credentials.username ?? '');
	const probe = new Probe(async (options) => await fn.helpers.httpRequest(options), base);
	const findings: Finding[] = [];
	const readings = new Set<string>();

	const { first, configured, encoding } = await firstLogIn(probe, credentials);
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
		reading: encoding === configured ? 'Log-in works with the credential as it is' : `Log-in works only with the password encoding ${encoding}; set it in the credential`,
		setting: { loginEncoding: encoding },
	});
	findings.push(tokenLifetime(login, first.date, readings));
	// how the service refuses a token: a made-up one (it ends nothing)
	findings.push(refusedToken(await probe.read('profile/detail', 'n8n-compatibility-check-made-up-token'), readings));

	const reads = await readSamples(probe, token1);
	const code = codeType(probe.answers, readings);
	findings.push(code.finding);
	findings.push(numbers(reads, code.codeStrings, readings));
	findings.push(paging(reads.groups));
	findings.push(payloadKey(reads.detail, reads.memory, reads.lines, readings));
	findings.push(emptyObjects(probe.answers, readings));
	findings.push(extraFields(probe.answers, readings));
	findings.push(lines(reads.lines, reads.linesCentre, readings));
	findings.push(hostLines(reads.hosts, readings));
	findings.push(recordLines(reads.recordsDomain, reads.records, readings));
	findings.push(restoreAnswers());
	// names no disk: refused in the envelope where the endpoint exists, HTTP 404 where it does not
	findings.push(unbindPath(await probe.read('instance/unbind', token1), readings));
	findings.push(notifyMethods(reads.plans));
	findings.push(await secondLogIn(probe, credentials, encoding, token1, reads.detail.ok, readings));

	const unread = readings.has('tokenRefusedUnrecognised') ? ' except how it refuses a token (see refusedToken)' : '';
	const message = readings.size
		? `This service follows these readings: ${[...readings].join(', ')}. The node reads all of them${unread}; use the credential settings given.`
		: 'This service answers as the vendor\'s documentation shows and as the node reads by default; use the credential settings given.';
	return [...findings, summary(findings, readings, settings, message)];
}
