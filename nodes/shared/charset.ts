/**
 * The text of an answer's bytes: which character encoding they are in, and the framing a service
 * may put around a document (a byte order mark, a `charset` parameter, an encoding declaration,
 * white space before the XML declaration). JSON of the management interface follows
 * docs/vendor/readings.md#r46, XML of the object storage #r29.
 */

/** Encodings a byte order mark names: the mark's bytes are not part of the text. */
function byteOrderMark(bytes: Uint8Array): { encoding: 'utf-8' | 'utf-16le' | 'utf-16be'; length: number } | undefined {
	if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: 'utf-8', length: 3 };
	// FF FE 00 00 would be UTF-32LE, which no decoder here reads; as UTF-16LE it gives a NUL first (not JSON, not XML)
	if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'utf-16be', length: 2 };
	if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: 'utf-16le', length: 2 };
	return undefined;
}

/** The `charset` parameter of a Content-Type, lower case and unquoted; '' when there is none. */
export function charsetOf(contentType: unknown): string {
	const m = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(String(contentType ?? ''));
	return (m?.[1] ?? m?.[2] ?? '').trim().toLowerCase();
}

const UTF8_LABELS = new Set(['utf-8', 'utf8', 'unicode-1-1-utf-8']);

/**
 * Labels of ISO-8859-1 (and US-ASCII, its subset): decoded byte for byte. The WHATWG decoder
 * behind TextDecoder reads these labels as windows-1252, which differs in 0x80-0x9F.
 */
const LATIN1_LABELS = new Set(['iso-8859-1', 'iso8859-1', 'iso_8859-1', 'iso_8859-1:1987', 'latin1', 'l1', 'cp819', 'ibm819', 'iso-ir-100', 'csisolatin1', 'us-ascii', 'ascii', 'us']);

/** A decoder of `label` (replacing bytes it cannot read), undefined when this Node knows no such encoding. */
function decoderOf(label: string, fatal = false): { decode(bytes: Uint8Array): string } | undefined {
	if (LATIN1_LABELS.has(label)) return { decode: (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1') };
	try {
		// ignoreBOM: a mark is taken off before decoding (byteOrderMark); a second one is text
		return new TextDecoder(label, { fatal, ignoreBOM: true });
	} catch {
		return undefined; // RangeError: an encoding label this Node does not know
	}
}

/** The bytes as UTF-8 when they are UTF-8 throughout, else undefined. */
function strictUtf8(bytes: Uint8Array): string | undefined {
	try {
		return decoderOf('utf-8', true)!.decode(bytes);
	} catch {
		return undefined; // TypeError: not UTF-8
	}
}

const asBytes = (bytes: Uint8Array): Buffer => (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));

/**
 * The text of a JSON answer (readings R46). A byte order mark names the encoding and is dropped
 * (RFC 8259 section 8.1: a parser may ignore it); bytes that are UTF-8 are read as UTF-8, whatever
 * the `charset` parameter says (RFC 8259 section 11: it has no effect); bytes that are not UTF-8
 * are read in the declared charset when this Node knows it, else as UTF-8 with U+FFFD for the
 * bytes that are not.
 */
export function jsonText(bytes: Uint8Array, contentType?: unknown): string {
	const bom = byteOrderMark(bytes);
	if (bom) return decoderOf(bom.encoding)!.decode(bytes.subarray(bom.length));
	const utf8 = strictUtf8(bytes);
	if (utf8 !== undefined) return utf8;
	const label = charsetOf(contentType);
	const declared = label && !UTF8_LABELS.has(label) ? decoderOf(label) : undefined;
	return declared ? declared.decode(bytes) : asBytes(bytes).toString('utf8');
}

/** The encoding an XML declaration names (`<?xml version="1.0" encoding="ISO-8859-1"?>`), lower case; '' when none. */
function declaredXmlEncoding(bytes: Uint8Array): string {
	// the declaration is ASCII in every encoding an XML declaration can be read in without a mark
	const head = asBytes(bytes.subarray(0, 512)).toString('latin1');
	const m = /^[ \t\r\n]*<\?xml\s[^>]*?\bencoding\s*=\s*(?:"([^"]*)"|'([^']*)')/.exec(head);
	return (m?.[1] ?? m?.[2] ?? '').trim().toLowerCase();
}

/** An XML answer in an encoding the node cannot read (readings R29). */
export class XmlEncodingError extends Error {
	readonly description =
		'The node reads UTF-8, UTF-16, ISO-8859-1 and the other encodings Node.js knows (GBK, GB18030, Big5, Shift_JIS, windows-1252, ...). Ask the service to answer in UTF-8, or check the Endpoint of the credential.';

	constructor(readonly encoding: string) {
		super(`The object storage answered with XML in the encoding "${encoding}", which the node cannot read`);
	}
}

/**
 * The text of an XML answer (readings R29): a byte order mark names the encoding; bytes that are
 * UTF-8 throughout are UTF-8 (a label that says otherwise is a mistake, as for JSON); other bytes
 * are in the encoding the `charset` parameter names, else the encoding declaration, the order of
 * XML media types (RFC 7303 section 3, XML 1.0 section 4.3.3 and appendix F). White space before
 * the XML declaration is dropped. Throws XmlEncodingError for an encoding Node does not know.
 */
export function xmlText(bytes: Uint8Array, contentType?: unknown): string {
	const bom = byteOrderMark(bytes);
	let text = bom ? decoderOf(bom.encoding)!.decode(bytes.subarray(bom.length)) : strictUtf8(bytes);
	if (text === undefined) {
		const label = charsetOf(contentType) || declaredXmlEncoding(bytes) || 'utf-8';
		const decoder = decoderOf(label);
		if (!decoder) throw new XmlEncodingError(label);
		text = decoder.decode(bytes);
	}
	return withoutSpaceBeforeDeclaration(text);
}

/** White space before `<?xml` (not XML, but unambiguous: readings R29) taken off. */
export function withoutSpaceBeforeDeclaration(text: string): string {
	return /^[ \t\r\n]/.test(text) ? text.replace(/^[ \t\r\n]+(?=<\?xml[ \t\r\n?])/, '') : text;
}
