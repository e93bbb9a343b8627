'use strict';
/**
 * The nodes and credentials speak US English, as n8n's editor does (issue 34, item 5): "data
 * center", "canceled", "catalog", "license", "favorite", "behavior", "organize".
 *
 * Read: what the built package shows a user. First the built descriptions of every node and
 * credential (display names, option names, descriptions, hints, placeholders, actions, notices,
 * subtitles); then every string and template text of dist/*.js (error messages, output notes,
 * the Verify Compatibility findings), leaving out single lower-case words such as `postcode` or
 * `dataCentre`, which are parameter names, wire names and output keys: those never change (the
 * schema guard holds them, and a saved workflow reads `$json.dataCentre`). Codex files are not
 * read: their aliases are words people type to find a node, British ones included.
 *
 * A word list: the British forms of words a cloud node's texts use, or could, with the US form
 * each becomes. -ise verbs are listed by stem with their endings.
 */
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

const ROOT = path.resolve(__dirname, '..', '..');
const pkg = require(path.join(ROOT, 'package.json'));

const WORDS = {
	// -our
	behaviour: 'behavior', behaviours: 'behaviors', colour: 'color', colours: 'colors', coloured: 'colored', favour: 'favor',
	favourite: 'favorite', favourites: 'favorites', favoured: 'favored', honour: 'honor', honoured: 'honored', labour: 'labor',
	neighbour: 'neighbor', neighbouring: 'neighboring', flavour: 'flavor', humour: 'humor', rumour: 'rumor', endeavour: 'endeavor',
	harbour: 'harbor', armour: 'armor', vapour: 'vapor', odour: 'odor', rigour: 'rigor', vigour: 'vigor', savour: 'savor',
	// -re
	centre: 'center', centres: 'centers', centred: 'centered', metre: 'meter', metres: 'meters', litre: 'liter', litres: 'liters',
	fibre: 'fiber', theatre: 'theater', calibre: 'caliber', lustre: 'luster', spectre: 'specter', sombre: 'somber', meagre: 'meager',
	// -ence, -ogue, -yse
	licence: 'license', licences: 'licenses', licenced: 'licensed', defence: 'defense', offence: 'offense', pretence: 'pretense',
	catalogue: 'catalog', catalogues: 'catalogs', catalogued: 'cataloged', dialogue: 'dialog', dialogues: 'dialogs', analogue: 'analog',
	analyse: 'analyze', analysed: 'analyzed', analyses: 'analyzes', analysing: 'analyzing', paralyse: 'paralyze', catalyse: 'catalyze',
	// doubled l
	cancelled: 'canceled', cancelling: 'canceling', labelled: 'labeled', labelling: 'labeling', travelled: 'traveled',
	travelling: 'traveling', modelled: 'modeled', modelling: 'modeling', signalled: 'signaled', signalling: 'signaling',
	totalled: 'totaled', totalling: 'totaling', channelled: 'channeled', fuelled: 'fueled', levelled: 'leveled', tunnelled: 'tunneled',
	marshalled: 'marshaled', marshalling: 'marshaling', counselled: 'counseled', dialled: 'dialed', dialling: 'dialing',
	enrol: 'enroll', enrolment: 'enrollment', fulfil: 'fulfill', fulfilment: 'fulfillment', instalment: 'installment', instil: 'instill',
	skilful: 'skillful', wilful: 'willful',
	// others
	grey: 'gray', greyed: 'grayed', ageing: 'aging', judgement: 'judgment', acknowledgement: 'acknowledgment', whilst: 'while',
	amongst: 'among', learnt: 'learned', spelt: 'spelled', programme: 'program', programmes: 'programs', cheque: 'check', tyre: 'tire',
	storey: 'story', tonne: 'metric ton', aluminium: 'aluminum', sceptical: 'skeptical', mould: 'mold', plough: 'plow', draught: 'draft',
	manoeuvre: 'maneuver', artefact: 'artifact', artefacts: 'artifacts', cosy: 'cozy', jewellery: 'jewelry', speciality: 'specialty',
	aeroplane: 'airplane', postcode: 'postal code', postcodes: 'postal codes', 'per cent': 'percent', practise: 'practice',
	oestrogen: 'estrogen', paediatric: 'pediatric', encyclopaedia: 'encyclopedia', orientated: 'oriented',
};
// -ise, -isation: stem + ise|ised|ises|ising|isation|isations|iser|isers
const ISE = (
	'authoris organis recognis realis initialis serialis deserialis normalis customis optimis summaris prioritis categoris synchronis ' +
	'utilis finalis minimis maximis standardis specialis localis personalis sanitis tokenis capitalis characteris stabilis centralis ' +
	'decentralis randomis visualis memoris parallelis emphasis apologis criticis digitis itemis legitimis mobilis monetis neutralis ' +
	'penalis rationalis scrutinis sensitis symbolis sympathis trivialis virtualis containeris generalis globalis internationalis ' +
	'harmonis hypothesis jeopardis moderni patronis polaris pressuris regularis reorganis subsidis equalis familiaris formalis ' +
	'marginalis materialis operationalis vectoris alphabetis amortis anonymis canonicalis dramatis fertilis finalis hospitalis ' +
	'immunis italicis lexicalis modularis motoris notaris ostracis pasteuris quantis revolutionis tantalis terroris utilis vocalis'
).split(' ');
for (const stem of ISE) {
	const us = stem.replace(/is$/, 'iz');
	for (const end of ['e', 'ed', 'es', 'ing', 'ation', 'ations', 'er', 'ers']) WORDS[`${stem}${end}`] = `${us}${end}`;
}
delete WORDS.analyses; // also the plural of "analysis", fine in US English
delete WORDS.emphasises; // keep the list to verbs; "emphasis" itself is US English
delete WORDS.hypothesises;

const PATTERN = new RegExp(`\\b(${Object.keys(WORDS).sort((a, b) => b.length - a.length).join('|')})\\b`, 'gi');

/** The British words of a text, with the text around each: "…the data centre whose…" → centre. */
function british(texts) {
	const out = [];
	for (const { where, text } of texts) {
		for (const m of String(text).matchAll(PATTERN)) {
			out.push(`${where}: "${m[0]}" → "${WORDS[m[0].toLowerCase()]}" in …${text.slice(Math.max(0, m.index - 40), m.index + m[0].length + 30)}…`);
		}
	}
	return out;
}

const SHOWN = new Set(['displayName', 'description', 'hint', 'placeholder', 'action', 'subtitle']);

/** Every text a user reads in a built description: option names too, parameter names not. */
function descriptionTexts(value, where, out = []) {
	if (Array.isArray(value)) value.forEach((v) => descriptionTexts(v, where, out));
	else if (value && typeof value === 'object') {
		const here = typeof value.name === 'string' ? `${where} > ${value.name}` : where;
		// an option ({ name, value }) shows its name; a parameter ({ name, type }) is found by its name
		if (typeof value.name === 'string' && 'value' in value && !('type' in value)) out.push({ where: here, text: value.name });
		for (const [key, v] of Object.entries(value)) {
			if (typeof v === 'string' && SHOWN.has(key)) out.push({ where: here, text: v });
			else if (v && typeof v === 'object' && key !== 'codex') descriptionTexts(v, here, out);
		}
	}
	return out;
}

function load(file) {
	const Class = Object.values(require(path.join(ROOT, file)))[0];
	return new Class();
}

function* jsFiles(dir) {
	for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
		const p = path.join(dir, e.name);
		if (e.isDirectory()) yield* jsFiles(p);
		else if (e.name.endsWith('.js')) yield p;
	}
}

/** Every string and template text of a JavaScript file but single lower-case words (names and keys). */
function jsTexts(file) {
	const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
	const out = [];
	const visit = (n) => {
		if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateHead(n) || ts.isTemplateMiddle(n) || ts.isTemplateTail(n)) {
			if (n.text.trim() && !/^[a-z_$][\w$]*$/.test(n.text)) out.push({ where: `${path.relative(ROOT, file)}:${source.getLineAndCharacterOfPosition(n.getStart()).line + 1}`, text: n.text });
		}
		ts.forEachChild(n, visit);
	};
	visit(source);
	return out;
}

test('the built node and credential descriptions use US spelling', () => {
	const texts = [];
	for (const file of pkg.n8n.nodes) {
		const { description } = load(file);
		descriptionTexts(description, description.name, texts);
	}
	for (const file of pkg.n8n.credentials) {
		const c = load(file);
		descriptionTexts({ displayName: c.displayName, properties: c.properties }, c.name, texts);
	}
	expect(texts.length).toBeGreaterThan(3000); // the texts were read
	expect(british(texts)).toEqual([]);
});

test('the messages and notes of dist/ use US spelling', () => {
	const texts = [...jsFiles(path.join(ROOT, 'dist'))].flatMap(jsTexts);
	expect(texts.length).toBeGreaterThan(5000);
	expect(british(texts)).toEqual([]);
});

test('the check finds a British word in a text and leaves names and keys alone', () => {
	expect(british([{ where: 'x', text: 'Only hosts in this data centre' }])).toEqual(['x: "centre" → "center" in …Only hosts in this data centre…']);
	expect(british([{ where: 'x', text: 'The execution was Cancelled; Get Catalogue; Business Licence; organised, colour, initialising' }])).toHaveLength(6);
	expect(british([{ where: 'x', text: 'dataCentre, getCatalogue, tokenRefusedUnrecognised, the analysis, emphasis, advise, exercise' }])).toEqual([]);
	const file = path.join(require('node:os').tmpdir(), `us-english-${process.pid}.js`);
	fs.writeFileSync(file, "const a = { name: 'postcode', key: 'dataCentre', label: 'Postcode' }; // a colour in a comment\nconst b = `${a} was cancelled`;\n");
	try {
		expect(jsTexts(file).map((t) => t.text)).toEqual(['Postcode', ' was cancelled']);
		expect(british(jsTexts(file))).toHaveLength(2);
	} finally {
		fs.rmSync(file);
	}
	// the option of a dropdown shows its name; a parameter's name is not shown
	const texts = descriptionTexts({ properties: [{ displayName: 'Data Centre', name: 'dataCentre', type: 'options', options: [{ name: 'Favourite', value: 'favourite' }] }] }, 'n');
	expect(texts.map((t) => t.text)).toEqual(['Data Centre', 'Favourite']);
});
