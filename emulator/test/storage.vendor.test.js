'use strict';
/**
 * The storage emulator spoken to with hand-built, hand-signed requests in the VENDOR scheme
 * (the client: vendor-client.js): signing, authentication, presigned URLs, canned ACLs, buckets.
 * Objects and listings: storage.objects.test.js; multipart upload and the fault switch:
 * storage.multipart.test.js.
 *
 * The client's signer is written from docs/vendor/object-storage.md#signing on its own (it
 * deliberately duplicates the emulator's verifier). It is first checked against the published
 * AWS signature V2 examples, and those examples are then replayed against the emulator in AWS
 * mode, so the emulator's verifier is pinned to an outside source too, not only to this file.
 */
const {
	NS,
	USER,
	VECTORS,
	emu,
	encodeKey,
	encodeSegment,
	expectError,
	hmac,
	newBucket,
	presign,
	putText,
	send,
	stringToSign,
	control,
	useEmulator,
	vreq,
} = require('./vendor-client');
const { createEmulator } = require('..');

useEmulator();

// ---- the signer against published vectors ------------------------------------------------

/** Canonical resource prefix of a virtual-hosted request (the vectors' Host header). */
function hostBucket(host) {
	const h = host.replace(/:\d+$/, '');
	if (h === 's3.amazonaws.com') return '';
	if (h.endsWith('.s3.amazonaws.com')) return '/' + h.slice(0, -'.s3.amazonaws.com'.length);
	return '/' + h; // CNAME style: the whole host is the bucket
}

describe('test signer reproduces the published AWS V2 vectors', () => {
	for (const v of VECTORS) {
		test(v.name, () => {
			if (v.docQuirk) {
				// As published, the signature does not follow the page's own rule: check only StringToSign -> signature.
				expect(hmac(v.secretAccessKey, v.stringToSign)).toBe(v.signature);
				const host = v.headers.find(([k]) => k === 'Host')[1];
				const sts = stringToSign({
					method: v.method,
					resource: hostBucket(host) + v.path,
					headers: v.headers,
					prefix: 'x-amz-',
				});
				expect(sts).not.toBe(v.stringToSign);
				return;
			}
			const host = v.headers.find(([k]) => k === 'Host')[1];
			const sts = stringToSign({
				method: v.method,
				resource: hostBucket(host) + v.path,
				headers: v.headers,
				prefix: 'x-amz-',
				dateSlot: v.expires !== undefined ? String(v.expires) : undefined,
			});
			expect(sts).toBe(v.stringToSign);
			expect(hmac(v.secretAccessKey, sts)).toBe(v.signature);
		});
	}
});

describe('emulator verifier accepts the published vectors (AWS mode, replayed path-style)', () => {
	let aws;
	beforeAll(async () => {
		const v = VECTORS[0];
		aws = await createEmulator({
			storage: {
				scheme: 'AWS',
				headerPrefix: 'x-amz-',
				presignKeyParam: 'AWSAccessKeyId',
				users: [{ accessKey: v.accessKeyId, secretKey: v.secretAccessKey, id: 'johnsmith' }],
			},
		});
	});
	afterAll(() => aws.close());

	for (const v of VECTORS) {
		test(v.name, async () => {
			const host = v.headers.find(([k]) => k === 'Host')[1];
			const path = hostBucket(host) + v.path; // same canonical resource, sent path-style
			const dateHeader = (v.headers.find(([k]) => k.toLowerCase() === 'x-amz-date') ||
				v.headers.find(([k]) => k === 'Date') ||
				[])[1];
			const when = v.expires !== undefined ? (v.expires - 3600) * 1000 : Date.parse(dateHeader);
			aws.faults.set({ clockOffsetMs: when - Date.now() });
			const headers = v.headers.filter(
				([k]) => !['host', 'content-length', 'user-agent'].includes(k.toLowerCase()),
			);
			const len = v.headers.find(([k]) => k.toLowerCase() === 'content-length');
			const body = len ? Buffer.alloc(Number(len[1])) : undefined;
			let target = path;
			if (v.expires !== undefined) {
				target += `?AWSAccessKeyId=${v.accessKeyId}&Expires=${v.expires}&Signature=${encodeURIComponent(v.signature)}`;
			} else {
				headers.push(['Authorization', `AWS ${v.accessKeyId}:${v.signature}`]);
			}
			const res = await send(aws.url, { method: v.method, path: target, headers, body });
			if (v.docQuirk) return expectError(res, 403, 'SignatureDoesNotMatch');
			// Past the signature check: the buckets do not exist (or the service list is empty).
			if (path === '/') expect(res.status).toBe(200);
			else expectError(res, 404, 'NoSuchBucket');
		});
	}
});

// ---- signing and authentication ---------------------------------------------------------

describe('authentication', () => {
	test('signed requests work with Date and with x-vendor-date; repeated vendor headers merge', async () => {
		const b = await newBucket();
		const body = Buffer.from('metadata test');
		const put = await vreq('PUT', `/${b}/meta.txt`, {
			vendorDate: true,
			body,
			headers: [
				['Content-Type', 'text/plain'],
				['X-Vendor-Meta-Reviewer', 'joe'],
				['x-vendor-meta-reviewer', 'jane'],
				['x-vendor-meta-Color', '  blue  '],
			],
		});
		expect(put.status).toBe(200);
		const get = await vreq('GET', `/${b}/meta.txt`);
		expect(get.status).toBe(200);
		expect(get.text).toBe('metadata test');
		expect(get.headers['x-vendor-meta-reviewer']).toBe('joe,jane');
		expect(get.headers['x-vendor-meta-color']).toBe('blue');
		expect(get.headers['content-type']).toBe('text/plain');
	});

	test('wrong secret: 403 SignatureDoesNotMatch, X-Trans-Id header = RequestId in the body', async () => {
		const res = await vreq('GET', '/', { secret: 'not-the-secret' });
		expectError(res, 403, 'SignatureDoesNotMatch');
		expect(res.xml.Error.StringToSign).toMatch(/^GET\n\n\n.+\n\/$/);
	});

	test('unknown access key, wrong scheme word, missing date', async () => {
		expectError(
			await vreq('GET', '/', { user: { accessKey: 'NOPE', secretKey: 'x' } }),
			403,
			'InvalidAccessKeyId',
		);
		const date = new Date().toUTCString();
		const sig = hmac(
			USER.secretKey,
			stringToSign({ method: 'GET', resource: '/', headers: [['Date', date]] }),
		);
		const aws = await send(emu().url, {
			method: 'GET',
			path: '/',
			headers: [
				['Date', date],
				['Authorization', `AWS ${USER.accessKey}:${sig}`],
			],
		});
		expectError(aws, 400, 'InvalidArgument');
		const noDate = await send(emu().url, {
			method: 'GET',
			path: '/',
			headers: [
				['Authorization', `VENDOR ${USER.accessKey}:${hmac(USER.secretKey, 'GET\n\n\n\n/')}`],
			],
		});
		expectError(noDate, 403, 'AccessDenied');
	});

	test('clock skew: 14 minutes is accepted, 16 minutes is RequestTimeTooSkewed (both directions)', async () => {
		emu().faults.set({ clockOffsetMs: 14 * 60 * 1000 });
		expect((await vreq('GET', '/')).status).toBe(200);
		emu().faults.set({ clockOffsetMs: 16 * 60 * 1000 });
		expectError(await vreq('GET', '/'), 403, 'RequestTimeTooSkewed');
		emu().faults.set({ clockOffsetMs: -16 * 60 * 1000 });
		expectError(await vreq('GET', '/', { vendorDate: true }), 403, 'RequestTimeTooSkewed');
	});

	test('the resource is signed as sent: a differently encoded path does not verify', async () => {
		const b = await newBucket();
		await putText(b, 'a b', 'x');
		const date = new Date().toUTCString();
		const headers = [['Date', date]];
		const sig = hmac(
			USER.secretKey,
			stringToSign({ method: 'GET', resource: `/${b}/a%20b`, headers }),
		);
		headers.push(['Authorization', `VENDOR ${USER.accessKey}:${sig}`]);
		expect((await send(emu().url, { method: 'GET', path: `/${b}/a%20b`, headers })).status).toBe(200);
		expectError(
			await send(emu().url, { method: 'GET', path: `/${b}/a%20%62`, headers }),
			403,
			'SignatureDoesNotMatch',
		);
		// non-sub-resource query parameters are not signed, sub-resources are
		expect(
			(await send(emu().url, { method: 'GET', path: `/${b}/a%20b?foo=bar`, headers })).status,
		).toBe(200);
		expectError(
			await send(emu().url, { method: 'GET', path: `/${b}/a%20b?acl`, headers }),
			403,
			'SignatureDoesNotMatch',
		);
	});

	test("ListAllMyBuckets on GET / lists only the caller's buckets; anonymous is denied", async () => {
		const b = await newBucket();
		await control('POST', '/storage/users', {
			accessKey: 'OTHERKEY',
			secretKey: 'other-secret',
			id: 'other-user',
		});
		const other = { accessKey: 'OTHERKEY', secretKey: 'other-secret' };
		const mine = await vreq('GET', '/');
		expect(mine.headers['content-type']).toBe('application/xml');
		expect(mine.xml.ListAllMyBucketsResult['@_xmlns']).toBe(NS);
		expect(mine.xml.ListAllMyBucketsResult.Owner.ID).toBe('vendor-test');
		expect(mine.xml.ListAllMyBucketsResult.Buckets.Bucket.map((x) => x.Name)).toContain(b);
		const theirs = await vreq('GET', '/', { user: other });
		expect(theirs.status).toBe(200);
		expect(theirs.xml.ListAllMyBucketsResult.Buckets).toBe('');
		expectError(await vreq('GET', '/', { anonymous: true }), 403, 'AccessDenied');
	});

	test('control route POST /config switches the scheme word at run time', async () => {
		await control('POST', '/storage/config', { scheme: 'ACME' });
		try {
			expectError(await vreq('GET', '/'), 400, 'InvalidArgument');
			const date = new Date().toUTCString();
			const sig = hmac(
				USER.secretKey,
				stringToSign({ method: 'GET', resource: '/', headers: [['Date', date]] }),
			);
			const res = await send(emu().url, {
				method: 'GET',
				path: '/',
				headers: [
					['Date', date],
					['Authorization', `ACME ${USER.accessKey}:${sig}`],
				],
			});
			expect(res.status).toBe(200);
		} finally {
			await control('POST', '/storage/config', { scheme: 'VENDOR' });
		}
		expect(await control('GET', '/storage/config')).toEqual({
			scheme: 'VENDOR',
			headerPrefix: 'x-vendor-',
			presignKeyParam: 'VENDORAccessKeyId',
		});
	});
});

describe('presigned URLs', () => {
	test('GET and PUT within Expires work; after Expires (emulator clock) they are rejected', async () => {
		const b = await newBucket();
		await putText(b, 'dir/pre signed+file.txt', 'presigned body');
		const path = `/${b}/${encodeKey('dir/pre signed+file.txt')}`;
		const expires = Math.floor(Date.now() / 1000) + 300;
		const url = presign('GET', path, { expires });
		const ok = await fetch(emu().url + url);
		expect(ok.status).toBe(200);
		expect(await ok.text()).toBe('presigned body');

		const putUrl = presign('PUT', `/${b}/uploaded.bin`, {
			expires,
			headers: [['Content-Type', 'application/octet-stream']],
		});
		const put = await fetch(emu().url + putUrl, {
			method: 'PUT',
			body: new Uint8Array([1, 2, 3]),
			headers: { 'Content-Type': 'application/octet-stream' },
		});
		expect(put.status).toBe(200);

		emu().clock.advance(301 * 1000);
		const late = await send(emu().url, { method: 'GET', path: url });
		expectError(late, 403, 'AccessDenied');
		expect(late.xml.Error.Message).toMatch(/expired/i);
	});

	test('a tampered presigned URL is SignatureDoesNotMatch', async () => {
		const b = await newBucket();
		await putText(b, 'x.txt', 'x');
		await putText(b, 'y.txt', 'y');
		const url = presign('GET', `/${b}/x.txt`, { expires: Math.floor(Date.now() / 1000) + 60 });
		expectError(
			await send(emu().url, { method: 'GET', path: url.replace('x.txt', 'y.txt') }),
			403,
			'SignatureDoesNotMatch',
		);
	});
});

// ---- ACLs --------------------------------------------------------------------------------

describe('canned ACLs', () => {
	test('anonymous read: public-read object yes, private object AccessDenied, private bucket list AccessDenied', async () => {
		const b = await newBucket();
		await putText(b, 'public.txt', 'for everyone', [['x-vendor-acl', 'public-read']]);
		await putText(b, 'private.txt', 'secret');
		const pub = await vreq('GET', `/${b}/public.txt`, { anonymous: true });
		expect(pub.status).toBe(200);
		expect(pub.text).toBe('for everyone');
		expectError(await vreq('GET', `/${b}/private.txt`, { anonymous: true }), 403, 'AccessDenied');
		expectError(await vreq('GET', `/${b}/missing.txt`, { anonymous: true }), 403, 'AccessDenied');
		expectError(await vreq('GET', `/${b}`, { anonymous: true }), 403, 'AccessDenied');
		expectError(
			await vreq('PUT', `/${b}/anon.txt`, { anonymous: true, body: 'x' }),
			403,
			'AccessDenied',
		);
	});

	test('bucket ACL via PUT ?acl; GET ?acl shows the grants with xsi:type', async () => {
		const b = await newBucket();
		const initial = await vreq('GET', `/${b}?acl`);
		expect(initial.status).toBe(200);
		expect(initial.headers['last-modified']).toBeTruthy();
		const policy = initial.xml.AccessControlPolicy;
		expect(policy['@_xmlns']).toBe(NS);
		expect(policy.Owner).toEqual({ ID: 'vendor-test', DisplayName: 'vendor-test' });
		expect(policy.AccessControlList.Grant).toHaveLength(1);
		expect(policy.AccessControlList.Grant[0].Permission).toBe('FULL_CONTROL');
		expect(policy.AccessControlList.Grant[0].Grantee['@_xsi:type']).toBe('CanonicalUser');
		expect(policy.AccessControlList.Grant[0].Grantee.ID).toBe('vendor-test');

		const set = await vreq('PUT', `/${b}/?acl`, {
			headers: [['x-vendor-acl', 'public-read-write']],
		});
		expect(set.status).toBe(200);
		expect(set.headers['content-length']).toBe('0');
		const after = (await vreq('GET', `/${b}/?acl`)).xml.AccessControlPolicy.AccessControlList.Grant;
		expect(
			after.map((g) => [g.Grantee['@_xsi:type'], g.Grantee.URI || g.Grantee.ID, g.Permission]),
		).toEqual([
			['CanonicalUser', 'vendor-test', 'FULL_CONTROL'],
			['Group', 'http://acs.amazonaws.com/groups/global/AllUsers', 'READ'],
			['Group', 'http://acs.amazonaws.com/groups/global/AllUsers', 'WRITE'],
		]);
		// public-read-write: anonymous may list and put
		expect(
			(await vreq('PUT', `/${b}/from-anon.txt`, { anonymous: true, body: 'anon' })).status,
		).toBe(200);
		const list = await vreq('GET', `/${b}`, { anonymous: true });
		expect(list.status).toBe(200);
		expect(list.xml.ListBucketResult.Contents.map((c) => c.Key)).toEqual(['from-anon.txt']);

		expectError(
			await vreq('PUT', `/${b}?acl`, { headers: [['x-vendor-acl', 'everyone']] }),
			400,
			'InvalidArgument',
		);
		expectError(await vreq('PUT', `/${b}?acl`), 400, 'InvalidArgument');
		expectError(await vreq('GET', `/${b}?acl`, { anonymous: true }), 403, 'AccessDenied');
	});

	test('authenticated-read: other users may list, anonymous may not; others cannot read private objects', async () => {
		await control('POST', '/storage/users', {
			accessKey: 'READERKEY',
			secretKey: 'reader-secret',
			id: 'reader',
		});
		const reader = { accessKey: 'READERKEY', secretKey: 'reader-secret' };
		const b = await newBucket('authenticated-read');
		await putText(b, 'doc.txt', 'doc');
		const grants = (await vreq('GET', `/${b}?acl`)).xml.AccessControlPolicy.AccessControlList.Grant;
		expect(grants[1]).toMatchObject({
			Grantee: { URI: 'http://acs.amazonaws.com/groups/global/AuthenticatedUsers' },
			Permission: 'READ',
		});
		expect((await vreq('GET', `/${b}`, { user: reader })).status).toBe(200);
		expectError(await vreq('GET', `/${b}`, { anonymous: true }), 403, 'AccessDenied');
		expectError(await vreq('GET', `/${b}/doc.txt`, { user: reader }), 403, 'AccessDenied');
		expectError(await vreq('DELETE', `/${b}`, { user: reader }), 403, 'AccessDenied');
	});
});

// ---- buckets -----------------------------------------------------------------------------

describe('buckets', () => {
	test('name rules', async () => {
		for (const bad of [
			'ab',
			'Upper-case',
			'-starts',
			'ends-',
			'under_score',
			'192.168.1.10',
			'x'.repeat(64),
			'sp ace',
		]) {
			expectError(await vreq('PUT', `/${encodeSegment(bad)}`), 400, 'InvalidBucketName');
		}
		for (const good of ['abc', 'a.b-c.9', 'x'.repeat(63), '1.2.3.4.5']) {
			expect((await vreq('PUT', `/${good}`)).status).toBe(200);
			expect((await vreq('DELETE', `/${good}`)).status).toBe(204);
		}
	});

	test('create, exists, empty body and headers; /bucket and /bucket/ both address the bucket', async () => {
		const b = await newBucket();
		const again = await vreq('PUT', `/${b}/`);
		expectError(again, 409, 'BucketAlreadyExists');
		await putText(b, 'one', '1');
		const a = await vreq('GET', `/${b}`);
		const c = await vreq('GET', `/${b}/`);
		expect(a.xml).toEqual(c.xml);
		expect(a.xml.ListBucketResult.Name).toBe(b);
		expect((await vreq('HEAD', `/${b}`)).status).toBe(200);
		expect((await vreq('HEAD', '/vt-no-such-bucket')).status).toBe(404);
	});

	test('delete: BucketNotEmpty with objects or uploads in progress, NoSuchBucket afterwards', async () => {
		const b = await newBucket();
		await putText(b, 'k', 'v');
		expectError(await vreq('DELETE', `/${b}`), 409, 'BucketNotEmpty');
		expect((await vreq('DELETE', `/${b}/k`)).status).toBe(204);
		const init = await vreq('POST', `/${b}/mp?uploads`);
		expectError(await vreq('DELETE', `/${b}`), 409, 'BucketNotEmpty');
		expect(
			(await vreq('DELETE', `/${b}/mp?uploadId=${init.xml.InitiateMultipartUploadResult.UploadId}`))
				.status,
		).toBe(204);
		const del = await vreq('DELETE', `/${b}/`);
		expect(del.status).toBe(204);
		expectError(await vreq('GET', `/${b}`), 404, 'NoSuchBucket');
		expectError(await vreq('PUT', `/${b}/k`, { body: 'x' }), 404, 'NoSuchBucket');
	});

	test('unsupported sub-resources answer 501 instead of acting on the object', async () => {
		const b = await newBucket();
		await putText(b, 'keep', 'me');
		expectError(await vreq('GET', `/${b}?versioning`), 501, 'NotImplemented');
		expectError(await vreq('DELETE', `/${b}/keep?tagging`), 501, 'NotImplemented');
		expect((await vreq('GET', `/${b}/keep`)).text).toBe('me');
	});
});

// ---- objects -----------------------------------------------------------------------------
