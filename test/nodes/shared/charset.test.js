'use strict';
/**
 * The text of an answer's bytes (nodes/shared/charset.ts, storage/xml.ts; docs/vendor/readings.md
 * R46 for JSON, R29 for XML): the cases the emulator's framing dialects do not play (framing.test.js
 * runs the nodes under those): UTF-16 after its mark, a charset other than ISO-8859-1, a
 * mislabelled charset, the order of mark, charset and declaration, an encoding Node does not
 * know, where a DOCTYPE counts. Pure functions of the build, nothing mocked.
 */
const path = require('node:path');
const { ROOT } = require('../../support/n8n');

const { jsonText, xmlText, charsetOf, XmlEncodingError } = require(path.join(ROOT, 'dist/nodes/shared/charset.js'));
const { parseXml, XmlDoctypeError } = require(path.join(ROOT, 'dist/nodes/shared/storage/xml.js'));

const NAME = 'Café 你好';
const utf16 = (text, le) => {
	const b = Buffer.from(`\uFEFF${text}`, 'utf16le');
	if (!le) for (let i = 0; i < b.length; i += 2) [b[i], b[i + 1]] = [b[i + 1], b[i]];
	return b;
};
/** GBK bytes of 你好 (C4 E3 BA C3): not UTF-8. */
const GBK_NIHAO = [0xc4, 0xe3, 0xba, 0xc3];

describe('JSON (readings R46)', () => {
	test.each([
		['UTF-8 after a UTF-8 mark', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`{"n":"${NAME}"}`)]), undefined],
		['UTF-16LE after its mark', utf16(`{"n":"${NAME}"}`, true), undefined],
		['UTF-16BE after its mark', utf16(`{"n":"${NAME}"}`, false), undefined],
		['UTF-8 labelled ISO-8859-1 (a mislabelled server): the bytes win', Buffer.from(`{"n":"${NAME}"}`), 'application/json; charset=ISO-8859-1'],
		['UTF-8 labelled GBK, quoted, in capitals', Buffer.from(`{"n":"${NAME}"}`), 'text/html; Charset="GBK"'],
		['GBK bytes labelled GBK', Buffer.from([...Buffer.from('{"n":"Café '.replace('é', '\\u00e9')), ...GBK_NIHAO, ...Buffer.from('"}')]), 'application/json;charset=gbk'],
	])('%s', (_name, bytes, type) => {
		expect(JSON.parse(jsonText(bytes, type))).toEqual({ n: NAME });
	});

	test('bytes that are not UTF-8, without a charset Node knows: U+FFFD for each, as before', () => {
		const bytes = Buffer.from([...Buffer.from('{"n":"'), ...GBK_NIHAO, ...Buffer.from('"}')]);
		expect(JSON.parse(jsonText(bytes, 'application/json; charset=x-unknown')).n).toMatch(/^\uFFFD+$/);
		expect(JSON.parse(jsonText(bytes)).n).toMatch(/^\uFFFD+$/);
	});

	test('a second U+FEFF after the mark is text, not dropped', () => {
		expect(jsonText(Buffer.from('\uFEFF\uFEFF{}'))).toBe('\uFEFF{}');
	});

	test('charsetOf reads the parameter in any case, quoted or not, and nothing else', () => {
		expect(['application/json; charset=UTF-8', 'text/html;CHARSET="utf-8"', 'application/json', '', undefined].map(charsetOf)).toEqual(['utf-8', 'utf-8', '', '', '']);
	});
});

describe('XML (readings R29)', () => {
	const doc = (decl, body = `<K>${NAME}</K>`) => `${decl}<R>${body}</R>`;

	test('a mark wins over the charset parameter and the declaration', () => {
		const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(doc('<?xml version="1.0" encoding="ISO-8859-1"?>'))]);
		expect(parseXml(bytes, 'application/xml; charset=ISO-8859-1').R.K).toBe(NAME);
		expect(parseXml(utf16(doc('<?xml version="1.0" encoding="UTF-16"?>'), true)).R.K).toBe(NAME);
	});

	test('the charset parameter wins over the declaration; the declaration names it when there is none', () => {
		const latin1 = Buffer.from(doc('<?xml version="1.0" encoding="UTF-8"?>', '<K>Café</K>'), 'latin1');
		expect(parseXml(latin1, 'text/xml; charset=iso-8859-1').R.K).toBe('Café');
		expect(parseXml(Buffer.from(doc("<?xml version='1.0' encoding='ISO-8859-1'?>", '<K>Café</K>'), 'latin1'), 'application/xml').R.K).toBe('Café');
		const gbk = Buffer.from([...Buffer.from('<?xml version="1.0" encoding="GBK"?><R><K>'), ...GBK_NIHAO, ...Buffer.from('</K></R>')]);
		expect(parseXml(gbk).R.K).toBe('你好');
		expect(parseXml(Buffer.from(doc('<?xml version="1.0"?>'))).R.K).toBe(NAME);
	});

	test('ISO-8859-1 is read byte for byte (0x80-0x9F are not windows-1252 there)', () => {
		const bytes = Buffer.from([...Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><R><K>'), 0x80, 0xe9, ...Buffer.from('</K></R>')]);
		expect(xmlText(bytes)).toMatch(/<K>\u0080é<\/K>/);
	});

	test('bytes that are UTF-8 are read as UTF-8 whatever the labels say (a mislabelled server)', () => {
		expect(parseXml(Buffer.from(doc('<?xml version="1.0" encoding="ISO-8859-1"?>')), 'application/xml; charset=windows-1252').R.K).toBe(NAME);
		expect(parseXml(Buffer.from(doc('<?xml version="1.0" encoding="x-vendor-8"?>'))).R.K).toBe(NAME);
	});

	test('bytes that are not UTF-8 in an encoding Node does not know: fails naming it', () => {
		const bytes = Buffer.from(doc('<?xml version="1.0" encoding="x-vendor-8"?>', '<K>Caf\xE9</K>'), 'latin1');
		expect(() => parseXml(bytes)).toThrow(XmlEncodingError);
		expect(() => parseXml(bytes)).toThrow('The object storage answered with XML in the encoding "x-vendor-8", which the node cannot read');
	});

	test('white space before the declaration is dropped, in bytes and in text', () => {
		expect(parseXml(Buffer.from(`\r\n \t${doc('<?xml version="1.0"?>')}`)).R.K).toBe(NAME);
		expect(parseXml(`\n${doc('<?xml version="1.0"?>')}`).R.K).toBe(NAME);
	});

	test('a DOCTYPE in the prolog is refused, after the declaration, comments or white space; the same words as text are not', () => {
		for (const prolog of ['<!DOCTYPE R>', '<?xml version="1.0"?>\n<!-- x --><!DOCTYPE R [<!ENTITY e "x">]>', '<?xml version="1.0"?><?pi x?>\n <!doctype R>']) {
			expect(() => parseXml(`${prolog}<R><K>&e;</K></R>`)).toThrow(XmlDoctypeError);
			expect(() => parseXml(Buffer.from(`${prolog}<R/>`))).toThrow(XmlDoctypeError);
		}
		expect(parseXml('<?xml version="1.0"?><R><K>&lt;!DOCTYPE x&gt;</K></R>').R.K).toBe('<!DOCTYPE x>');
	});
});
