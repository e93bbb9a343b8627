'use strict';
/**
 * Bucket > Check Compatibility against the emulator in every storage dialect: it must name each
 * reading correctly, recommend the credential settings that suit it, and leave nothing behind
 * (objects, uploads, the scratch bucket), also when a step fails.
 */
const { startVendor } = require('../../support/vendor');
const { n8n, NODE, rl } = require('../../support/storage');

const CHECKS = ['signing', 'bucketPath', 'trickyKey', 'xml', 'commonPrefixes', 'marker', 'bucketAcl', 'multipart-uploadId/partNumber', 'multipart-upload_id/part_number', 'presignedGet', 'conditionalGet', 'rangeAnswer', 'cleanup', 'summary'];

/** What the check must report per dialect (readings of the summary item). */
const DEFAULT_READINGS = {
	commonPrefixes: 'prefixElement',
	marker: 'startsAfter',
	bucketAcl: 'allGrants',
	camel: 'camel',
	snake: 'snake',
	presignedGet: 'works',
	conditionalGet: 'asDocumented',
	bucketPath: 'asSent',
	xmlBooleans: 'lowercase',
	xmlEscapes: 'predefined',
	partEtag: 'header',
	listing: 'once',
	ifMatch: 'honoured',
	range: 'partial206',
	multipartEtag: 's3Form',
};
const EXPECTED = {
	default: {},
	commonPrefixesPlain: { commonPrefixes: 'plainString' },
	markerInclusive: { marker: 'startsAt' },
	aclOwnerOnly: { bucketAcl: 'fullControlOnly' },
	underscoreSigned: { snake: 'snakeSigned' },
	subresourceDecoded: { camel: 'camelDecoded', subResourceValues: 'decoded' },
	trickyUploadIds: { subResourceValues: 'asSent' },
	extraFields: {},
	bucketPathSlash: { bucketPath: 'slashOnly' },
	booleansCapitalized: { xmlBooleans: 'capitalized' },
	booleansNumeric: { xmlBooleans: 'numeric' },
	numericReferences: { xmlEscapes: 'numeric' },
	partEtagMissing: { partEtag: 'listPartsOnly', multipartEtag: 'other' },
	// issue 33: how ranges and If-Match are answered, the form of multipart ETags, repeated entries (readings R74)
	rangeAs200: { range: 'rangeOnly200' },
	rangeIgnored: { range: 'whole200' },
	ifMatchIgnored: { ifMatch: 'ignored', conditionalGet: 'differs' },
	multipartEtagPlain: { multipartEtag: 'plainHex' },
	listingRepeats: { listing: 'repeats', marker: 'startsAt' },
};
/** The settings the summary recommends for a credential with the defaults. */
const RECOMMENDED = {
	subresourceDecoded: { advanced: true, bucketPath: 'slash', multipartQueryNames: 'camel', signUnderscoreSubResources: false, subResourceValues: 'decoded' },
};
const DEFAULT_SETTINGS = { advanced: false, bucketPath: 'slash', multipartQueryNames: 'camel', signUnderscoreSubResources: false, subResourceValues: 'asSent' };

const run = (v, options = {}, opts = {}) =>
	v.ok(NODE, { resource: 'bucket', operation: 'checkCompatibility', bucket: rl('compat-bucket'), options: { firstPartSize: 0.05, scratchBucket: true, ...options } }, opts);

async function leftovers(v, prefix) {
	const objects = (await v.control('GET', '/storage/objects?bucket=compat-bucket')).objects.filter((o) => o.key.startsWith(prefix));
	const uploads = (await v.control('GET', '/storage/uploads')).uploads;
	const buckets = (await n8n.listSearch(NODE, 'searchBuckets', { credentials: { vendorObjectStorageApi: { endpoint: v.url, accessKey: 'VENDORTESTKEY', accessSecret: 'vendor-test-secret' } } })).results.map((r) => r.value);
	return { objects, uploads, buckets };
}

describe.each(Object.keys(EXPECTED).map((d) => [d]))('dialect %s', (dialect) => {
	let v;
	beforeAll(async () => {
		v = await startVendor({ dialects: dialect === 'default' ? [] : [dialect] });
		await v.ok(NODE, { resource: 'bucket', operation: 'create', bucketName: 'compat-bucket' });
		await v.ok(NODE, { resource: 'object', operation: 'upload', bucket: rl('compat-bucket'), key: 'keep/me.txt', binaryData: false, fileContent: 'not the check\'s' });
	});
	afterAll(() => v.close());

	test('names the reading of each check, recommends the settings, and leaves nothing behind', async () => {
		const items = await run(v);
		expect(items.map((i) => i.check)).toEqual(CHECKS);
		for (const item of items) {
			expect(typeof item.tried).toBe('string');
			expect(typeof item.observed).toBe('string');
			expect(typeof item.reading).toBe('string');
		}
		const summary = items.at(-1);
		expect(summary.readings).toEqual({ ...DEFAULT_READINGS, ...EXPECTED[dialect] });
		expect(summary.settings).toEqual(RECOMMENDED[dialect] ?? DEFAULT_SETTINGS);
		expect(summary.observed).toBe('Every check gave a clear answer');
		const byCheck = Object.fromEntries(items.map((i) => [i.check, i]));
		expect(byCheck.cleanup.reading).toBe('Everything the check made is gone');
		const prefix = /under "([^"]+)"/.exec(summary.tried)[1];
		expect(prefix).toMatch(/^n8n-compat-[0-9a-f]{8}\/$/);
		const left = await leftovers(v, prefix);
		expect(left.objects).toEqual([]);
		expect(left.uploads).toEqual([]);
		expect(left.buckets).toEqual(['compat-bucket']);
		// what was there before stays
		expect((await v.control('GET', '/storage/objects?bucket=compat-bucket')).objects.map((o) => o.key)).toEqual(['keep/me.txt']);

		// the findings say it in words a user can act on
		const words = {
			commonPrefixesPlain: [byCheck.commonPrefixes.reading, /repeated string/],
			markerInclusive: [byCheck.marker.reading, /starts AT the marker key/],
			aclOwnerOnly: [byCheck.bucketAcl.reading, /Only FULL_CONTROL grants are listed, even for a public-read bucket/],
			underscoreSigned: [byCheck['multipart-upload_id/part_number'].reading, /signed as sub-resources \(not in the documentation's list\)/],
			subresourceDecoded: [summary.reading, /set Sub-Resource Values in the Signature: Decoded/],
			trickyUploadIds: [byCheck['multipart-uploadId/partNumber'].reading, /upload IDs are signed as sent/],
			rangeAs200: [byCheck.rangeAnswer.reading, /answered 200 with only the bytes asked for/],
			rangeIgnored: [byCheck.rangeAnswer.reading, /answered 200 with the whole object/],
			ifMatchIgnored: [byCheck.conditionalGet.reading, /If-Match is ignored/],
			multipartEtagPlain: [byCheck['multipart-uploadId/partNumber'].observed, /32 hex digits/],
			listingRepeats: [byCheck.marker.reading, /lists entries again/],
		}[dialect];
		if (words) expect(words[0]).toMatch(words[1]);
		if (!RECOMMENDED[dialect]) expect(summary.reading).toBe("Keep the credential's bucket path, multipart and signing settings as they are");
	});

	if (dialect === 'underscoreSigned') {
		test('a credential that uses upload_id/part_number is told to sign them', async () => {
			const store = new n8n.CredentialStore();
			const ref = store.add('vendorObjectStorageApi', { endpoint: v.url, accessKey: 'VENDORTESTKEY', accessSecret: 'vendor-test-secret', advanced: true, multipartQueryNames: 'snake' });
			const items = await run(v, {}, { credentials: { vendorObjectStorageApi: ref }, store });
			const summary = items.at(-1);
			expect(summary.settings).toEqual({ advanced: true, bucketPath: 'slash', multipartQueryNames: 'snake', signUnderscoreSubResources: true, subResourceValues: 'asSent' });
			expect(summary.reading).toBe('Under Advanced Protocol Settings of the credential set Sign Underscore Names: on');
		});
	}

	if (dialect === 'aclOwnerOnly') {
		test('without the scratch bucket an owner-only ACL is reported as undetermined, not as private', async () => {
			const items = await run(v, { scratchBucket: false });
			const acl = items.find((i) => i.check === 'bucketAcl');
			expect(acl.reading).toMatch(/^Only the owner's FULL_CONTROL: the bucket is private, or the service lists only FULL_CONTROL grants/);
			expect(items.at(-1).readings.bucketAcl).toBe('undetermined');
		});
	}
});

describe('failures during the check', () => {
	let v;
	beforeAll(async () => {
		v = await startVendor();
		await v.ok(NODE, { resource: 'bucket', operation: 'create', bucketName: 'compat-bucket' });
	});
	afterAll(() => v.close());
	afterEach(() => v.control('POST', '/faults', { inject: [] }));

	test('a failing Complete: the finding says so, and the upload it started is aborted', async () => {
		// an object of the user's own under the prefix they name is left alone
		await v.ok(NODE, { resource: 'object', operation: 'upload', bucket: rl('compat-bucket'), key: 'my-scratch/own.txt', binaryData: false, fileContent: 'mine' });
		await v.control('POST', '/faults', { inject: [{ op: 'CompleteMultipartUpload', kind: 'http', status: 400, code: 'InvalidPart', times: 1 }] });
		const items = await run(v, { prefix: 'my-scratch' });
		const camel = items.find((i) => i.check === 'multipart-uploadId/partNumber');
		expect(camel.observed).toMatch(/InvalidPart/);
		expect(camel.reading).toMatch(/failed for another reason than the signature/);
		expect(items.at(-1).observed).toMatch(/Checks with problems: multipart-uploadId\/partNumber/);
		expect(items.find((i) => i.check === 'cleanup').observed).toMatch(/1 uploads aborted; none of them left under the prefix/);
		const left = await leftovers(v, 'my-scratch/');
		expect(left.objects.map((o) => o.key)).toEqual(['my-scratch/own.txt']);
		expect(left.uploads).toEqual([]);
	});

	test('the first write refused: the node fails with the service error and writes nothing', async () => {
		const store = new n8n.CredentialStore();
		const ref = store.add('vendorObjectStorageApi', { endpoint: v.url, accessKey: 'VENDORTESTKEY', accessSecret: 'wrong-secret' });
		const error = await v.fails(NODE, { resource: 'bucket', operation: 'checkCompatibility', bucket: rl('compat-bucket') }, { credentials: { vendorObjectStorageApi: ref }, store });
		expect(error.context.serviceCode).toBe('SignatureDoesNotMatch');
		expect((await v.control('GET', '/storage/objects?bucket=compat-bucket')).objects.filter((o) => o.key.startsWith('n8n-compat-'))).toEqual([]);
	});
});
