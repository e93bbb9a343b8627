'use strict';
/**
 * The storage emulator's multipart upload and its fault switch, spoken to with hand-built,
 * hand-signed requests in the VENDOR scheme (the client: vendor-client.js; its signer is checked
 * against the published AWS vectors in storage.vendor.test.js).
 */
const {
	NS,
	crypto,
	emu,
	encodeKey,
	expectError,
	md5b64,
	md5hex,
	newBucket,
	putText,
	control,
	useEmulator,
	vreq,
} = require('./vendor-client');

useEmulator();

// ---- multipart ---------------------------------------------------------------------------

/** The multipart ETag computed here, independently: md5 of the binary part md5s, "-n". */
const multipartEtag = (parts) =>
	`"${md5hex(Buffer.concat(parts.map((p) => crypto.createHash('md5').update(p).digest())))}-${parts.length}"`;

function completeBody(parts) {
	return `<CompleteMultipartUpload xmlns="${NS}">${parts.map((p) => `<Part><PartNumber>${p.n}</PartNumber><ETag>${p.etag}</ETag></Part>`).join('')}</CompleteMultipartUpload>`;
}

describe('multipart upload', () => {
	for (const [label, U, P] of [
		['uploadId/partNumber', 'uploadId', 'partNumber'],
		['upload_id/part_number (underscore spelling)', 'upload_id', 'part_number'],
	]) {
		test(`full flow with ${label}`, async () => {
			const b = await newBucket();
			const key = 'big/file name+1.bin';
			const path = `/${b}/${encodeKey(key)}`;
			const init = await vreq('POST', `${path}?uploads`, {
				headers: [
					['Content-Type', 'application/x-test'],
					['x-vendor-meta-kind', 'multi'],
				],
			});
			expect(init.status).toBe(200);
			const r = init.xml.InitiateMultipartUploadResult;
			expect([r['@_xmlns'], r.Bucket, r.Key]).toEqual([NS, b, key]);
			const id = r.UploadId;
			const parts = [crypto.randomBytes(70000), crypto.randomBytes(1), crypto.randomBytes(33333)];
			const etags = [];
			for (let i = 0; i < parts.length; i++) {
				const res = await vreq('PUT', `${path}?${P}=${i + 1}&${U}=${encodeURIComponent(id)}`, {
					body: parts[i],
					headers: [['Content-MD5', md5b64(parts[i])]],
				});
				expect(res.status).toBe(200);
				expect(res.headers.etag).toBe(`"${md5hex(parts[i])}"`);
				etags.push(res.headers.etag);
			}
			// list parts, paged
			const lp = await vreq('GET', `${path}?${U}=${encodeURIComponent(id)}&max-parts=2`);
			const l = lp.xml.ListPartsResult;
			expect([
				l.Bucket,
				l.Key,
				l.UploadId,
				l.IsTruncated,
				l.NextPartNumberMarker,
				l.MaxParts,
				l.StorageClass,
			]).toEqual([b, key, id, 'true', '2', '2', 'STANDARD']);
			expect(l.Initiator).toEqual({ ID: 'vendor-test', DisplayName: 'vendor-test' });
			expect(l.Part.map((p) => [p.PartNumber, p.ETag, p.Size])).toEqual([
				['1', etags[0], '70000'],
				['2', etags[1], '1'],
			]);
			const l2 = (await vreq('GET', `${path}?${U}=${encodeURIComponent(id)}&part-number-marker=2`))
				.xml.ListPartsResult;
			expect([
				l2.IsTruncated,
				l2.NextPartNumberMarker,
				l2.PartNumberMarker,
				l2.Part.map((p) => p.PartNumber),
			]).toEqual(['false', undefined, '2', ['3']]);
			expect((await control('GET', '/storage/uploads')).uploads).toContainEqual(
				expect.objectContaining({ bucket: b, key, uploadId: id, parts: 3 }),
			);

			const done = await vreq('POST', `${path}?${U}=${encodeURIComponent(id)}`, {
				body: completeBody(etags.map((etag, i) => ({ n: i + 1, etag }))),
				headers: [['Content-Type', 'application/xml']],
			});
			expect(done.status).toBe(200);
			const c = done.xml.CompleteMultipartUploadResult;
			expect([c.Bucket, c.Key, c.ETag]).toEqual([b, key, multipartEtag(parts)]);
			expect(c.Location).toBe(`${emu().url}${path}`);
			const got = await vreq('GET', path);
			expect(got.body.equals(Buffer.concat(parts))).toBe(true);
			expect(got.headers).toMatchObject({
				'content-type': 'application/x-test',
				'x-vendor-meta-kind': 'multi',
				etag: multipartEtag(parts),
			});
			expect(
				(await control('GET', '/storage/uploads')).uploads.filter((u) => u.uploadId === id),
			).toEqual([]);
			expectError(await vreq('GET', `${path}?${U}=${encodeURIComponent(id)}`), 404, 'NoSuchUpload');
		});
	}

	test('InvalidPart, InvalidPartOrder, MalformedXML, part number range; a subset of parts may be completed', async () => {
		const b = await newBucket();
		const path = `/${b}/mp`;
		const id = (await vreq('POST', `${path}?uploads`)).xml.InitiateMultipartUploadResult.UploadId;
		const q = `uploadId=${id}`;
		for (const bad of ['0', '10001', 'x', '-1', '1.5']) {
			expectError(
				await vreq('PUT', `${path}?partNumber=${bad}&${q}`, { body: 'x' }),
				400,
				'InvalidArgument',
			);
		}
		expectError(await vreq('PUT', `${path}?partNumber=1`, { body: 'x' }), 400, 'InvalidArgument');
		const e1 = (await vreq('PUT', `${path}?partNumber=1&${q}`, { body: 'one' })).headers.etag;
		const e2 = (await vreq('PUT', `${path}?partNumber=2&${q}`, { body: 'two' })).headers.etag;
		const e3 = (await vreq('PUT', `${path}?partNumber=10000&${q}`, { body: 'three' })).headers.etag;
		const complete = (parts) => vreq('POST', `${path}?${q}`, { body: completeBody(parts) });
		const refused = [
			[[{ n: 2, etag: e2 }, { n: 1, etag: e1 }], 'InvalidPartOrder'],
			[[{ n: 1, etag: e1 }, { n: 1, etag: e1 }], 'InvalidPartOrder'],
			[[{ n: 1, etag: e1 }, { n: 2, etag: e1 }], 'InvalidPart'],
			[[{ n: 1, etag: e1 }, { n: 3, etag: e2 }], 'InvalidPart'],
		];
		for (const [parts, code] of refused) expectError(await complete(parts), 400, code);
		expectError(
			await vreq('POST', `${path}?${q}`, { body: '<CompleteMultipartUpload><Part>' }),
			400,
			'MalformedXML',
		);
		expectError(
			await vreq('POST', `${path}?${q}`, {
				body: '<CompleteMultipartUpload></CompleteMultipartUpload>',
			}),
			400,
			'MalformedXML',
		);
		// still in progress after all those failures; etags accepted without quotes too
		const ok = await complete([
			{ n: 1, etag: e1.replace(/"/g, '') },
			{ n: 10000, etag: e3 },
		]);
		expect(ok.status).toBe(200);
		expect((await vreq('GET', path)).text).toBe('onethree');
		expect(ok.xml.CompleteMultipartUploadResult.ETag).toBe(
			multipartEtag([Buffer.from('one'), Buffer.from('three')]),
		);
	});

	test('abort: 204, then NoSuchUpload everywhere; unknown ids are NoSuchUpload', async () => {
		const b = await newBucket();
		const path = `/${b}/ab`;
		const id = (await vreq('POST', `${path}?uploads`)).xml.InitiateMultipartUploadResult.UploadId;
		await vreq('PUT', `${path}?partNumber=1&uploadId=${id}`, { body: 'part' });
		const del = await vreq('DELETE', `${path}?upload_id=${id}`);
		expect(del.status).toBe(204);
		expectError(await vreq('DELETE', `${path}?uploadId=${id}`), 404, 'NoSuchUpload');
		expectError(
			await vreq('PUT', `${path}?partNumber=2&uploadId=${id}`, { body: 'x' }),
			404,
			'NoSuchUpload',
		);
		expectError(
			await vreq('POST', `${path}?uploadId=${id}`, { body: completeBody([{ n: 1, etag: '"x"' }]) }),
			404,
			'NoSuchUpload',
		);
		expectError(await vreq('GET', `${path}?uploadId=nope`), 404, 'NoSuchUpload');
		expectError(await vreq('GET', `/${b}/other-key?uploadId=${id}`), 404, 'NoSuchUpload');
		expect((await control('GET', `/storage/uploads?bucket=${b}`)).uploads).toEqual([]);
		expectError(await vreq('GET', path), 404, 'NoSuchKey');
	});
});

// ---- faults ------------------------------------------------------------------------------

describe('fault switch', () => {
	test('errorRate 1 on UploadPart: parts fail with 503 SlowDown / 500 InternalError, nothing stored, other operations work', async () => {
		const b = await newBucket();
		const path = `/${b}/faulty`;
		const id = (await vreq('POST', `${path}?uploads`)).xml.InitiateMultipartUploadResult.UploadId;
		emu().faults.set({ errorRate: 1, errorOps: ['UploadPart'] });
		const codes = new Set();
		for (let i = 1; i <= 12; i++) {
			const res = await vreq('PUT', `${path}?partNumber=${i}&uploadId=${id}`, {
				body: crypto.randomBytes(100000),
			});
			expect([500, 503]).toContain(res.status);
			expect(res.xml.Error.Code).toBe(res.status === 503 ? 'SlowDown' : 'InternalError');
			expect(res.xml.Error.RequestId).toBe(res.headers['x-trans-id']);
			codes.add(res.xml.Error.Code);
		}
		expect([...codes].sort()).toEqual(['InternalError', 'SlowDown']);
		// the same kept-alive connections still work: the bodies were drained
		await putText(b, 'still-works', 'yes');
		const lp = (await vreq('GET', `${path}?uploadId=${id}`)).xml.ListPartsResult;
		expect(lp.Part).toBeUndefined();
		expect((await control('GET', `/storage/uploads?bucket=${b}`)).uploads[0].parts).toBe(0);
		emu().faults.reset();
		expect((await vreq('DELETE', `${path}?uploadId=${id}`)).status).toBe(204);
		expect((await control('GET', `/storage/uploads?bucket=${b}`)).uploads).toEqual([]);
	});

	test('storageErrors: injected errors only of the codes asked for (a service that fails hard without SlowDown); a bad list is refused', async () => {
		const b = await newBucket();
		await putText(b, 'k', 'v');
		await control('POST', '/faults', { errorRate: 1, errorOps: ['GetObject'], storageErrors: ['InternalError'] });
		for (let i = 0; i < 12; i++) expectError(await vreq('GET', `/${b}/k`), 500, 'InternalError');
		await control('POST', '/faults', { storageErrors: ['SlowDown'] });
		for (let i = 0; i < 4; i++) expectError(await vreq('GET', `/${b}/k`), 503, 'SlowDown');
		expect((await control('GET', '/faults')).storageErrors).toEqual(['SlowDown']);
		const bad = await fetch(`${emu().url}/__emulator/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ storageErrors: ['Teapot'] }) });
		expect(bad.status).toBe(400);
		emu().faults.reset();
		expect(emu().faults.storageErrors).toEqual(['SlowDown', 'InternalError']);
		expect((await vreq('GET', `/${b}/k`)).status).toBe(200);
	});

	test('errorRate 1 on PutObject leaves no partial object', async () => {
		const b = await newBucket();
		emu().faults.set({ errorRate: 1, errorOps: ['PutObject'] });
		const res = await vreq('PUT', `/${b}/never`, { body: crypto.randomBytes(1 << 20) });
		expect([500, 503]).toContain(res.status);
		emu().faults.reset();
		expect((await control('GET', `/storage/objects?bucket=${b}`)).objects).toEqual([]);
	});
});
