/**
 * Checks with plain objects and listings: the signature, a key with awkward characters, the
 * form of CommonPrefixes, where a listing starts relative to its marker, presigned URLs and
 * conditional GETs.
 */
import type { IDataObject } from 'n8n-workflow';

import { serviceNow } from '../../../shared/storage/clock';
import { presignedUrl } from '../../../shared/storage/signer';
import { children, parseXml, text, type XmlNode, type XmlValue } from '../../../shared/storage/xml';
import { asNodeError } from '../common';
import { compareKeys } from '../listing';
import { messageOf, TRICKY_NAME, type Check } from './check';

export async function signing(c: Check): Promise<void> {
	const key = `${c.o.prefix}probe.txt`;
	const s = c.settings;
	const tried = `Put Object ${c.o.bucket}/${key}, signed with "${s.profile.scheme} <access key>:<signature>" and the ${s.profile.headerPrefix}date header`;
	try {
		const res = await c.put(key, Buffer.from('n8n compatibility check\n'));
		c.add({
			check: 'signing',
			tried,
			observed: `HTTP ${res.statusCode}${res.headers.etag ? `, ETag ${res.headers.etag}` : ''}`,
			reading: 'The service accepts the signature, scheme word and header prefix of the credential',
		});
	} catch (error) {
		c.problem({ check: 'signing', tried, observed: messageOf(error), reading: 'The service refused the first write; the other checks need it', setting: 'See the error: access key and secret, and the Scheme Word and Header Prefix under Advanced Protocol Settings' });
		throw asNodeError(c.ctx, error, c.o.itemIndex);
	}
}

export async function trickyKey(c: Check): Promise<void> {
	const key = `${c.o.prefix}${TRICKY_NAME}`;
	const body = Buffer.from(`content of ${TRICKY_NAME}`);
	const tried = `Put Object, Get Object and List Objects of the key "${key}" (Unicode, space, + = : % ? # ~), sent percent-encoded per path segment`;
	try {
		await c.put(key, body, { 'Content-Type': 'text/plain' });
		const got = (await c.get(key)).body as Buffer;
		const listed = children(await c.list([['prefix', `${c.o.prefix}tricky/`]]), 'Contents').map((e) => text(e, 'Key'));
		const same = got.equals(body);
		const inList = listed.includes(key);
		(same && inList ? c.add : c.problem).call(c, {
			check: 'trickyKey',
			tried,
			observed: `Get Object gave ${same ? 'the same bytes' : `other bytes (${got.length} instead of ${body.length})`}; the listing ${inList ? 'holds the key unchanged' : `holds ${JSON.stringify(listed)}`}`,
			reading: same && inList ? 'Keys round-trip: encoded per RFC 3986, signed as sent (the ruling)' : 'Keys do not round-trip: the service decodes or signs keys differently',
		});
	} catch (error) {
		c.problem({ check: 'trickyKey', tried, observed: messageOf(error), reading: 'Keys with these characters do not work with this service' });
	}
}

/** The form of the first CommonPrefixes element: 'prefixElement' (S3) or 'plainString' (the documentation's). */
function prefixForm(doc: XmlNode | undefined): { form?: 'prefixElement' | 'plainString'; value?: string } {
	const raw = doc?.CommonPrefixes as XmlValue | undefined;
	const first = Array.isArray(raw) ? raw[0] : raw;
	if (typeof first === 'string') return { form: 'plainString', value: first };
	if (first && typeof first === 'object' && !Array.isArray(first)) {
		if (first.Prefix !== undefined) return { form: 'prefixElement', value: text(first, 'Prefix') };
		if (typeof first['#text'] === 'string') return { form: 'plainString', value: first['#text'] };
	}
	return {};
}

export async function commonPrefixes(c: Check, readings: IDataObject): Promise<void> {
	const p = c.o.prefix;
	const tried = `List Objects with prefix "${p}" and delimiter "/" over ${p}dir/a.txt, ${p}dir/b.txt and ${p}probe.txt`;
	try {
		await c.put(`${p}dir/a.txt`, Buffer.from('a'));
		await c.put(`${p}dir/b.txt`, Buffer.from('b'));
		const { form, value } = prefixForm(await c.list([['delimiter', '/'], ['prefix', p]]));
		readings.commonPrefixes = form ?? 'none';
		(form ? c.add : c.problem).call(c, {
			check: 'commonPrefixes',
			tried,
			observed: form === 'prefixElement' ? `<CommonPrefixes><Prefix>${value}</Prefix></CommonPrefixes>` : form === 'plainString' ? `<CommonPrefixes>${value}</CommonPrefixes>` : 'no CommonPrefixes element',
			reading:
				form === 'prefixElement'
					? "S3's form: each common prefix in a Prefix element"
					: form === 'plainString'
						? 'The documentation\'s "repeated string": each common prefix as the element\'s text'
						: 'The service groups no keys by the delimiter',
			setting: form ? 'None: the node reads both forms' : 'None; folders will not appear in List Objects',
		});
	} catch (error) {
		c.problem({ check: 'commonPrefixes', tried, observed: messageOf(error), reading: 'Could not tell' });
	}
}

export async function marker(c: Check, readings: IDataObject): Promise<void> {
	const p = `${c.o.prefix}m/`;
	const at = `${p}2.txt`;
	const tried = `List Objects with prefix "${p}", marker "${at}" and max-keys 2 over ${p}1.txt to ${p}4.txt`;
	try {
		for (const n of [1, 2, 3, 4]) await c.put(`${p}${n}.txt`, Buffer.from(String(n)));
		const doc = await c.list([['marker', at], ['max-keys', 2], ['prefix', p]]);
		const listed = children(doc, 'Contents').map((e) => text(e, 'Key'));
		const keys = [...listed].sort(compareKeys);
		// a service may list entries again (the end of the previous page, an entry twice): docs/vendor/readings.md#r74
		const repeats = keys.some((k, n) => compareKeys(k, at) < 0 || keys[n - 1] === k);
		readings.listing = repeats ? 'repeats' : 'once';
		const from = keys.filter((k) => compareKeys(k, at) >= 0);
		const reading = from[0] === at ? 'startsAt' : from[0] === `${p}3.txt` ? 'startsAfter' : 'other';
		readings.marker = reading;
		(reading === 'other' ? c.problem : c.add).call(c, {
			check: 'marker',
			tried,
			observed: `Keys ${JSON.stringify(listed)}${text(doc, 'NextMarker') ? `, NextMarker ${text(doc, 'NextMarker')}` : ''}`,
			reading:
				(reading === 'startsAt'
					? 'The listing starts AT the marker key (the documentation\'s wording)'
					: reading === 'startsAfter'
						? 'The listing starts after the marker key (S3)'
						: 'Neither reading: the listing did not start at or right after the marker') +
				(repeats ? '; it lists entries again (keys before the marker, or a key twice)' : ''),
			setting:
				reading === 'other'
					? 'None helps: List Objects paging may skip or repeat keys'
					: `None: the node drops the keys at or before the marker${repeats ? ' and a key listed twice' : ''}, so ${repeats ? 'such a listing pages' : 'both readings page'} correctly`,
		});
	} catch (error) {
		c.problem({ check: 'marker', tried, observed: messageOf(error), reading: 'Could not tell' });
	}
}

export async function presignedGet(c: Check, readings: IDataObject): Promise<void> {
	const key = `${c.o.prefix}${TRICKY_NAME}`;
	const s = c.settings;
	const tried = `A presigned GET URL (${s.presignKeyParam}, Expires, Signature) for ${key}, fetched without credentials`;
	try {
		const url = presignedUrl({
			endpoint: s.endpoint,
			method: 'GET',
			bucket: c.o.bucket,
			key,
			accessKey: s.accessKey,
			secret: s.accessSecret,
			expires: Math.floor(serviceNow(s.endpoint) / 1000) + 300,
			profile: s.profile,
			keyParam: s.presignKeyParam,
		});
		const res = (await c.ctx.helpers.httpRequest({
			url,
			method: 'GET',
			encoding: 'arraybuffer',
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			timeout: s.responseTimeoutMs,
		})) as { statusCode: number; headers?: Record<string, string>; body: unknown };
		const body = Buffer.isBuffer(res.body) ? res.body : Buffer.from(String(res.body ?? ''));
		const same = res.statusCode === 200 && body.equals(Buffer.from(`content of ${TRICKY_NAME}`));
		let code = '';
		if (res.statusCode !== 200) {
			try {
				code = text(parseXml(body, res.headers?.['content-type']).Error, 'Code');
			} catch {
				// not an S3 error document
			}
		}
		readings.presignedGet = same ? 'works' : 'refused';
		(same ? c.add : c.problem).call(c, {
			check: 'presignedGet',
			tried,
			observed: `HTTP ${res.statusCode}${code ? ` ${code}` : ''}${same ? ', the object\'s bytes' : ''}`,
			reading: same ? 'Presigned URLs work' : 'The service refuses presigned URLs signed this way',
			...(same ? {} : { setting: 'Check Presigned URL Key Parameter under Advanced Protocol Settings (VENDORAccessKeyId by default)' }),
		});
	} catch (error) {
		c.problem({ check: 'presignedGet', tried, observed: messageOf(error), reading: 'Could not tell' });
	}
}

/**
 * How the service answers a range (docs/vendor/readings.md#r74): a 206 with Content-Range (S3), a
 * 200 with only the bytes asked for, or a 200 with the whole object. Copy, Move and Get Info work
 * with all three, so no setting follows from it.
 */
export async function rangeAnswer(c: Check, readings: IDataObject): Promise<void> {
	const key = `${c.o.prefix}probe.txt`;
	const tried = `Get Object ${key} (24 bytes) with Range: bytes=2-5`;
	try {
		const res = await c.get(key, { Range: 'bytes=2-5' });
		const body = res.body as Buffer;
		const range = res.headers['content-range'];
		const form =
			res.statusCode === 206 && range !== undefined && body.length === 4
				? 'partial206'
				: res.statusCode === 200 && range === undefined && body.length === 4
					? 'rangeOnly200'
					: res.statusCode === 200 && range === undefined && body.length > 4
						? 'whole200'
						: 'other';
		readings.range = form;
		const words: Record<string, string> = {
			partial206: 'A range is answered 206 with Content-Range (S3)',
			rangeOnly200: 'A range is answered 200 with only the bytes asked for and no Content-Range (the documentation\'s "200 with the content"): the node learns sizes from the listing and checks the length of each answer',
			whole200: 'A range is answered 200 with the whole object: Copy and Move read such an object once, in order, and Download\'s Range has no effect',
			other: 'A range is answered in neither documented way',
		};
		(form === 'other' ? c.problem : c.add).call(c, {
			check: 'rangeAnswer',
			tried,
			observed: `HTTP ${res.statusCode}, ${body.length} bytes${range !== undefined ? `, Content-Range ${range}` : ', no Content-Range'}`,
			reading: words[form],
			setting: form === 'other' ? 'None helps: Copy and Move will stop on such answers' : 'None: Copy, Move and Get Info work with every form',
		});
	} catch (error) {
		c.problem({ check: 'rangeAnswer', tried, observed: messageOf(error), reading: 'Could not tell' });
	}
}

export async function conditionalGet(c: Check, readings: IDataObject): Promise<void> {
	const key = `${c.o.prefix}probe.txt`;
	const tried = `Get Object ${key} with If-None-Match set to its own ETag, then with If-Match set to another ETag`;
	try {
		const plain = await c.get(key);
		const etag = plain.headers.etag;
		if (!etag) {
			c.problem({ check: 'conditionalGet', tried, observed: 'Get Object sent no ETag header', reading: 'Conditions on the ETag cannot be used with this service' });
			return;
		}
		const same = await c.get(key, { 'If-None-Match': etag }, [304]);
		let other = 'no 412';
		try {
			const res = await c.get(key, { 'If-Match': '"00000000000000000000000000000000"' }, [412]);
			other = `HTTP ${res.statusCode}`;
		} catch (error) {
			other = messageOf(error);
		}
		const ok = same.statusCode === 304 && other === 'HTTP 412';
		readings.conditionalGet = ok ? 'asDocumented' : 'differs';
		// If-Match ignored is a reading the node works under (docs/vendor/readings.md#r74): Copy and Move check each answer's ETag
		readings.ifMatch = other === 'HTTP 412' ? 'honoured' : other === 'HTTP 200' ? 'ignored' : 'other';
		const ignored = readings.ifMatch === 'ignored';
		(ok || (ignored && same.statusCode === 304) ? c.add : c.problem).call(c, {
			check: 'conditionalGet',
			tried,
			observed: `If-None-Match: HTTP ${same.statusCode}; If-Match: ${other}`,
			reading: ok
				? 'Conditions work as documented: 304 when the ETag matches If-None-Match, 412 when it differs from If-Match'
				: ignored && same.statusCode === 304
					? 'If-None-Match works as documented; If-Match is ignored (the object comes whatever its ETag): Download\'s If-Match has no effect, and Copy and Move check the ETag of every answer instead'
					: 'Conditions do not work as documented',
			...(ignored ? { setting: 'None: Copy and Move check the ETag of every answer themselves' } : {}),
		});
	} catch (error) {
		c.problem({ check: 'conditionalGet', tried, observed: messageOf(error), reading: 'Could not tell' });
	}
}
