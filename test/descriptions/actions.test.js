'use strict';
/**
 * The actions of the action nodes: what n8n's node panel lists when a node is opened, one line per
 * Operation option, with its `action` label (issue 34 item 5; issue 36 points 1 and 7).
 *
 * 1. One form, as n8n's own nodes write it ("Create a record", "Get many records", STYLE.md):
 *    sentence case (the first word capitalized, the others lower case but acronyms and proper
 *    names), the article English needs before a singular noun (after the verb and after a
 *    preposition: "Get the ACL of a bucket"), none before a plural or a mass noun ("Delete
 *    hosts", "Get current data of channels"), "a" or "an" as the next word sounds ("an SSL
 *    certificate", "a URL"), and every Get Many "Get many <plural>". n8n's own lint
 *    (generated-lint.test.js) checks only the casing, with the sentence-case package.
 * 2. The words people type find the action inside the node: n8n 2.40.7's panel filters a node's
 *    actions with sublimeSearch over the label alone (@n8n/utils, the same function and weights
 *    as the editor's bundle), so "purge" must be in the label of a cache refresh and "restart" in
 *    the label of a reboot.
 * 3. The order: n8n's panel lists the actions in the order of the description, Resource option by
 *    Resource option and, in each, the resource's Operation options as they come (n8n 2.40.7,
 *    generateMergedNodesAndActions; its sort of panel entries leaves actions in place). n8n's lint
 *    (node-param-options-type-unsorted-items) wants a list of five options or more alphabetical,
 *    so only shorter lists can follow what people do most: Get Many, Get, Create or Add, Update,
 *    Delete, then the rest by name. A diagnostic (Verify Compatibility) is never a node's first
 *    action and comes last in its resource; Object Storage lists its files first and Multipart
 *    Upload, a step-by-step form of what Upload does by itself, last.
 */
const path = require('node:path');
const { sublimeSearch } = require('@n8n/utils/search/sublime-search');

const ROOT = path.resolve(__dirname, '..', '..');
const pkg = require(path.join(ROOT, 'package.json'));

const nodes = pkg.n8n.nodes
	.map((file) => new (require(path.join(ROOT, file))[path.basename(file).split('.')[0]])().description)
	.filter((d) => d.properties.some((p) => p.name === 'resource'));

/** The actions in the order n8n's panel lists them: [{ resource, operation, name, action }]. */
function panelActions(description) {
	const resource = description.properties.find((p) => p.name === 'resource');
	const out = [];
	for (const r of resource.options) {
		const dropdown = description.properties.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(r.value));
		for (const o of dropdown.options) out.push({ resource: r.value, resourceName: r.name, operation: o.value, name: o.name, action: o.action });
	}
	return out;
}

// ---- 1. the form ----

/** Written in capitals (or as their owners write them) inside a sentence. */
const CAPITALIZED = new Set(['ACL', 'API', 'BGP', 'CDN', 'CPU', 'DNS', 'HTML', 'ID', 'IP', 'ISP', 'MX', 'SSL', 'TXT', 'URL', 'VNC', 'Vendor']);
/** The verbs actions start with, and the two-word ones. */
const VERBS = new Set(
	(
		'abort add apply attach buy change check close complete copy create delete detach download enable exchange find get initiate ' +
		'list log move pause prefetch purge reboot register reinstall remove rename renew repeat resize restart restore roll send set ' +
		'share star start stop unstar update upgrade upload verify'
	).split(' '),
);
const PARTICLES = { log: 'in', roll: 'back' };
const PREPOSITIONS = new Set(['about', 'by', 'for', 'from', 'in', 'into', 'of', 'on', 'to', 'with']);
const DETERMINERS = new Set(['a', 'an', 'the', 'many', 'its', 'their', 'one', 'every', 'all']);
/** Nouns without a plural: no article needed. */
const MASS = new Set(['access', 'bandwidth', 'compatibility', 'data', 'info', 'traffic']);
/** Words after "an" though written with a consonant, and after "a" though written with a vowel. */
const VOWEL_SOUND = /^(hour|honest)/;
const CONSONANT_SOUND = /^(one|once|uni|use|usa|usu|eu)/;

const isPlural = (word) => /s$/.test(word) && !/(ss|us)$/.test(word);

/** "a" or "an" before a word, by its sound. */
function articleFor(word) {
	if (/^[A-Z]{2,}/.test(word)) return /^[AEFHILMNORSX]/.test(word) ? 'an' : 'a'; // spelled out: an SSL, a URL
	const w = word.toLowerCase();
	if (VOWEL_SOUND.test(w)) return 'an';
	if (CONSONANT_SOUND.test(w)) return 'a';
	return /^[aeiou]/.test(w) ? 'an' : 'a';
}

/** What is wrong with an action's form, or null. `getMany`: the operation is a Get Many. */
function formProblem(action, getMany = false) {
	const words = action.split(' ');
	if (!/^[A-Z][a-z-]*$/.test(words[0])) return `"${words[0]}": the first word starts with a capital, the rest of it small`;
	const cased = words.slice(1).find((w) => w !== w.toLowerCase() && !CAPITALIZED.has(w));
	if (cased) return `"${cased}": sentence case, only acronyms and proper names capitalized`;
	if (getMany && !/^Get many /.test(action)) return 'a Get Many reads "Get many <things>"';

	const lower = words.map((w) => w.toLowerCase());
	const phrases = []; // the noun phrases: the verb's object and each preposition's
	let i = 0;
	const verb = () => {
		if (!VERBS.has(lower[i])) return `"${words[i]}": not a verb actions start with (add it to VERBS if it is one)`;
		if (PARTICLES[lower[i]] && lower[i + 1] === PARTICLES[lower[i]]) i += 1;
		while (lower[i + 1] === 'or' && VERBS.has(lower[i + 2])) i += 2; // "Enable or pause"
		i += 1;
		return null;
	};
	const first = verb();
	if (first) return first;
	let phrase = [];
	for (; i < lower.length; i++) {
		if (PREPOSITIONS.has(lower[i])) {
			phrases.push(phrase);
			phrase = [];
			if (lower[i] === 'to' && VERBS.has(lower[i + 1])) {
				i += 1; // "to share a file": a verb again, its object next
				const again = verb();
				if (again) return again;
				i -= 1;
			}
			continue;
		}
		phrase.push(words[i]);
	}
	phrases.push(phrase);
	for (const [n, p] of phrases.entries()) {
		if (!p.length) continue;
		const head = p[p.length - 1].toLowerCase();
		const start = p[0].toLowerCase();
		if (start === 'a' || start === 'an') {
			if (p.length < 2) return `"${p.join(' ')}": an article with no noun`;
			if (start !== articleFor(p[1])) return `"${p.join(' ')}": "${articleFor(p[1])} ${p[1]}"`;
			if (isPlural(head)) return `"${p.join(' ')}": "${start}" before a plural`;
		} else if (!DETERMINERS.has(start) && !isPlural(head) && !MASS.has(head)) {
			return `"${p.join(' ')}": a singular noun needs its article (a, an, the), or say it in the plural`;
		}
		if (getMany && n === 0 && !isPlural(head)) return `"${p.join(' ')}": Get many of a plural`;
	}
	return null;
}

describe('every action in the one form: sentence case, the article English needs, "Get many" for Get Many', () => {
	const all = nodes.flatMap((d) => panelActions(d).map((a) => ({ node: d.name, ...a })));

	test('the nodes have their 182 actions, each with a label', () => {
		expect(all.length).toBe(182);
		expect(all.filter((a) => typeof a.action !== 'string' || !a.action)).toEqual([]);
	});

	test('each action has the form', () => {
		const wrong = all
			.map((a) => ({ at: `${a.node} ${a.resource}/${a.operation}`, action: a.action, problem: formProblem(a.action, a.operation === 'getAll') }))
			.filter((a) => a.problem);
		expect(wrong).toEqual([]);
	});

	test('the check refuses what n8n would not write and accepts what it would', () => {
		const bad = {
			'Create bucket': /singular noun/,
			'Get bucket ACL': /singular noun/,
			'List objects in bucket': /"bucket"/,
			'Get presigned URL': /singular noun/,
			'Upload Object': /sentence case/,
			'create a file': /first word/,
			'Get a hosts': /before a plural/,
			'Upload a object': /"an object"/,
			'Get an URL': /"a URL"/,
			'Create an SSL certificate for a domain': null,
			'Get all hosts': /Get many/,
			'Get many host': /plural/,
			'Frobnicate a host': /not a verb/,
		};
		for (const [action, expected] of Object.entries(bad)) {
			const problem = formProblem(action, /^Get (all|many)/.test(action));
			if (expected) expect({ action, problem }).toEqual({ action, problem: expect.stringMatching(expected) });
			else expect({ action, problem }).toEqual({ action, problem: null });
		}
		for (const good of ['Get many DNS records', 'Delete hosts', 'Get current data of channels', 'Log in to check the account', 'Enable or pause a domain', 'Roll back a host to a snapshot', 'Detach a cloud disk from its host', 'Get a presigned URL to share a file', 'Register an account']) {
			expect({ good, problem: formProblem(good, good.startsWith('Get many')) }).toEqual({ good, problem: null });
		}
	});
});

// ---- 2. the words people type ----

/** What n8n's panel shows inside a node for a typed phrase: its actions that match, best first. */
function search(description, phrase) {
	const items = panelActions(description).map((a) => ({ key: `${a.resource}/${a.operation}`, properties: { displayName: a.action, codex: { label: `${a.resourceName} Actions` } } }));
	return sublimeSearch(phrase, items).map((r) => r.item.key);
}

const byName = Object.fromEntries(nodes.map((d) => [d.name, d]));

describe("the words people type find the action inside its node (n8n's panel matches the action label)", () => {
	test.each([
		['vendorCdn', 'purge', 'cacheRefresh/create'],
		['vendorCdn', 'purge cache', 'cacheRefresh/create'],
		['vendorCdn', 'purge files', 'cacheRefresh/create'],
		['vendorCdn', 'prefetch', 'prefetch/create'],
		['vendorCloudHost', 'restart', 'host/reboot'],
		['vendorCloudHost', 'reboot', 'host/reboot'],
		['vendorObjectStorage', 'upload file', 'object/upload'],
		['vendorObjectStorage', 'download file', 'object/download'],
		['vendorObjectStorage', 'delete file', 'object/delete'],
		['vendorObjectStorage', 'delete files', 'object/deleteMany'],
		['vendorObjectStorage', 'list files', 'bucket/listObjects'],
		['vendorObjectStorage', 'copy file', 'object/copy'],
		['vendorObjectStorage', 'move file', 'object/move'],
		['vendorObjectStorage', 'rename file', 'object/move'],
		['vendorObjectStorage', 'share file', 'object/getPresignedUrl'],
		['vendorObjectStorage', 'presigned url', 'object/getPresignedUrl'],
		['vendorAccountBilling', 'compatibility', 'account/checkCompatibility'],
	])('%s: "%s" lists %s first', (node, phrase, expected) => {
		expect(search(byName[node], phrase)[0]).toBe(expected);
	});
});

// ---- 3. the order ----

/** Get Many, Get, Create or Add, Update, Delete, then the rest by name; a diagnostic after all of them. */
const RANK = { getAll: 0, get: 1, create: 2, add: 2, update: 3, delete: 4, checkCompatibility: 6 };
const rank = (o) => RANK[o.operation] ?? 5;
const usageOrder = (ops) => [...ops].sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name));
const alphabetical = (ops) => [...ops].sort((a, b) => a.name.localeCompare(b.name));

describe("the order of the actions in n8n's panel", () => {
	test.each(nodes.map((d) => [d.name, d]))('%s: no diagnostic first; lists of five or more alphabetical (n8n lint), shorter ones by use', (_name, d) => {
		const actions = panelActions(d);
		expect(actions[0].operation).not.toBe('checkCompatibility');
		const resources = [...new Set(actions.map((a) => a.resource))];
		for (const r of resources) {
			const ops = actions.filter((a) => a.resource === r);
			const expected = ops.length >= 5 ? alphabetical(ops) : usageOrder(ops);
			expect({ resource: r, order: ops.map((o) => o.name) }).toEqual({ resource: r, order: expected.map((o) => o.name) });
			const check = ops.findIndex((o) => o.operation === 'checkCompatibility');
			if (check !== -1) expect({ resource: r, diagnosticAt: check }).toEqual({ resource: r, diagnosticAt: ops.length - 1 });
		}
	});

	test('Object Storage: files first, then folders and buckets, Multipart Upload last', () => {
		const resource = byName.vendorObjectStorage.properties.find((p) => p.name === 'resource');
		expect(resource.options.map((o) => o.value)).toEqual(['object', 'folder', 'bucket', 'multipartUpload']);
	});

	test('the usage order: Get Many, Get, Create or Add, Update, Delete, then the rest by name', () => {
		const ops = ['delete', 'repeat', 'getAll', 'add', 'update', 'get', 'buy'].map((operation) => ({ operation, name: operation }));
		expect(usageOrder(ops).map((o) => o.operation)).toEqual(['getAll', 'get', 'add', 'update', 'delete', 'buy', 'repeat']);
	});
});

module.exports = { formProblem, panelActions };
