'use strict';
/**
 * Vendor Object Storage Trigger on a bucket of 100,000 objects (issue 27). Figures, not
 * assertions; not part of `npm test`.
 *
 *   npm run bench objectTrigger
 *
 * The emulator runs in its own process, in AWS mode (`AWS` / `x-amz-` / `AWSAccessKeyId`) so
 * that aws-sdk v2 and the trigger (its credential's Advanced Protocol Settings set to the same
 * words) talk to the same emulator. The trigger is polled by n8n-core's poll machinery
 * (test/support/n8n.js runPoll, static data kept between polls as an active workflow keeps it).
 * The peer is the least any poller of this service must do: one plain listing of the whole
 * bucket (aws-sdk listObjects, 1,000 keys a page, Marker), nothing compared, nothing kept.
 *
 * For each kind of poll: the trigger's static data size (JSON characters of the node's static
 * data, the bound being 64 KiB), storage requests per poll (counted by the emulator), the
 * trigger's time per poll and the plain listing's, and their ratio trigger/listing. Kinds:
 *   idle    nothing changed since the previous poll
 *   10 new  ten objects written at random places among the 100,000
 *   burst   2,000 new objects and 200 old ones rewritten with other content (New or Changed)
 *
 * Then what the trigger keeps exactly once (issue 33), one poll each: N objects that appear with a
 * LastModified from before the previous poll (late multipart completes stamped at their start,
 * copies that keep their date), which the window of recent objects cannot see and only the
 * difference summary tells apart, for N in BENCH_LATE; `same age` writes them with the
 * LastModified of the 100,000 (the hardest case for the age classes); and a deletion of 3,000 of
 * the 100,000 with nothing new: three whole folders, and 3,000 keys spread over the bucket (the
 * case nothing in 64 KiB can narrow). For each: events, those emitted exactly once (no repeatPossible),
 * those flagged repeatPossible, new objects missed (must be 0), events for objects that did not
 * change (repeats), and the static data's size.
 *
 * Environment: BENCH_KEYS (100000), BENCH_RUNS (3; medians are printed), BENCH_LATE
 * (1000,1400,1600,2000,5000).
 */
const os = require('node:os');
const { performance } = require('node:perf_hooks');

process.env.AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE = '1';
const n8n = require('../support/n8n');
const { spawnEmulator } = require('../../emulator/spawn');

const KEYS = Number(process.env.BENCH_KEYS || 100000);
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS || 3));
const LATE = (process.env.BENCH_LATE || '1000,1400,1600,2000,5000').split(',').map(Number);
const BUCKET = 'watched';
const KEY = { accessKeyId: 'VENDORTESTKEY', secretAccessKey: 'vendor-test-secret' };
const AWS_WORDS = { scheme: 'AWS', headerPrefix: 'x-amz-', presignKeyParam: 'AWSAccessKeyId' };
const rl = (value) => ({ __rl: true, mode: 'name', value });
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const fmt = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : String(x));
const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');

async function main() {
	const AWS = require('aws-sdk');
	const emu = await spawnEmulator();
	try {
		await emu.control('POST', '/storage/config', AWS_WORDS);
		await emu.control('POST', '/storage/buckets', { name: BUCKET });
		const keyOf = (i) => `inbox/${String(i % 97).padStart(2, '0')}/${String(i).padStart(6, '0')}-${(i * 2654435761) % 1e9}.json`;
		for (let i = 0; i < KEYS; i += 10000) {
			const objects = [];
			for (let j = i; j < Math.min(KEYS, i + 10000); j++) objects.push({ key: keyOf(j), body: String(j) });
			const res = await emu.control('POST', '/storage/objects', { bucket: BUCKET, objects });
			if (res.error) throw new Error(res.error);
		}
		const s3 = new AWS.S3({ endpoint: emu.url, s3ForcePathStyle: true, signatureVersion: 's3', region: 'us-east-1', maxRetries: 0, ...KEY });
		const store = new n8n.CredentialStore();
		const credentials = {
			vendorObjectStorageApi: store.add('vendorObjectStorageApi', {
				endpoint: emu.url,
				accessKey: KEY.accessKeyId,
				accessSecret: KEY.secretAccessKey,
				advanced: true,
				schemeWord: AWS_WORDS.scheme,
				headerPrefix: AWS_WORDS.headerPrefix,
				presignKeyParam: AWS_WORDS.presignKeyParam,
			}),
		};
		const parameters = { event: 'newOrChanged', bucket: rl(BUCKET), prefix: 'inbox/', includeSubfolders: true, download: false };
		const staticData = {};
		const requests = async () => Object.values((await emu.control('GET', '/stats')).storage.requests).reduce((a, b) => a + b, 0);

		const poll = async (activation = false, mayWarn = false) => {
			const before = await requests();
			const t = performance.now();
			const r = await n8n.runPoll('vendorObjectStorageTrigger', parameters, { credentials, store, staticData, activation });
			const ms = performance.now() - t;
			const errors = [...r.emitErrors, ...r.logs.filter((l) => l.level === 'error' || (l.level === 'warn' && !mayWarn))];
			if (errors.length) throw new Error(`the poll failed or warned: ${JSON.stringify(errors).slice(0, 500)}`);
			return { ms, items: r.items.length, events: r.items, requests: (await requests()) - before, state: JSON.stringify(staticData).length };
		};
		const plainListing = async () => {
			const t = performance.now();
			let marker;
			let count = 0;
			for (;;) {
				const page = await s3.listObjects({ Bucket: BUCKET, Prefix: 'inbox/', MaxKeys: 1000, Marker: marker }).promise();
				count += page.Contents.length;
				if (!page.IsTruncated) break;
				marker = page.NextMarker || page.Contents[page.Contents.length - 1].Key;
			}
			return { ms: performance.now() - t, count };
		};

		console.log(`object storage trigger on ${KEYS} objects: ${RUNS} runs of each kind of poll, medians; emulator in its own process; polls run by n8n-core`);
		console.log(`  ${os.cpus().length} CPUs, node ${process.version}, load average at start ${load()}`);
		const activation = await poll(true);
		console.log(`  activation poll (baseline): ${fmt(activation.ms, 0)} ms, ${activation.requests} requests, static data ${activation.state} characters`);
		await plainListing(); // warm-up

		let serial = 0;
		const kinds = {
			idle: async () => 0,
			'10 new': async () => {
				const objects = Array.from({ length: 10 }, (_, n) => ({ key: `inbox/${String((serial * 7 + n) % 97).padStart(2, '0')}/new-${serial}-${n}.json`, body: 'new' }));
				serial++;
				await emu.control('POST', '/storage/objects', { bucket: BUCKET, objects });
				return 10;
			},
			burst: async () => {
				const fresh = Array.from({ length: 2000 }, (_, n) => ({ key: `inbox/burst/${serial}/${String(n).padStart(4, '0')}.json`, body: 'burst' }));
				const rewritten = Array.from({ length: 200 }, (_, n) => ({ key: keyOf((serial * 389 + n * 491) % KEYS), body: `rewritten ${serial}` }));
				serial++;
				await emu.control('POST', '/storage/objects', { bucket: BUCKET, objects: [...fresh, ...rewritten] });
				return 2200;
			},
		};
		const rows = [];
		for (const [kind, change] of Object.entries(kinds)) {
			const runs = { ms: [], peer: [], requests: [], state: [] };
			for (let run = 0; run < RUNS; run++) {
				const expected = await change();
				let p;
				let peer;
				// the order alternates from run to run
				if (run % 2 === 0) {
					p = await poll();
					peer = await plainListing();
				} else {
					peer = await plainListing();
					p = await poll();
				}
				if (p.items !== expected) throw new Error(`${kind}: the trigger emitted ${p.items} items, expected ${expected}`);
				runs.ms.push(p.ms);
				runs.peer.push(peer.ms);
				runs.requests.push(p.requests);
				runs.state.push(p.state);
				console.log(`  ${kind} run ${run + 1}: trigger ${fmt(p.ms, 0)} ms (${p.requests} requests, ${p.items} items), plain listing ${fmt(peer.ms, 0)} ms (${peer.count} keys) (load ${load()})`);
			}
			rows.push({ kind, ms: median(runs.ms), peer: median(runs.peer), requests: median(runs.requests), state: Math.max(...runs.state) });
		}
		console.log('');
		console.log('  poll      static data (chars)  requests/poll  trigger ms/poll  plain listing ms  trigger/listing');
		for (const r of rows) {
			console.log(`  ${r.kind.padEnd(8)}  ${String(r.state).padStart(19)}  ${String(r.requests).padStart(13)}  ${fmt(r.ms, 0).padStart(15)}  ${fmt(r.peer, 0).padStart(16)}  ${fmt(r.ms / r.peer, 2).padStart(15)}`);
		}
		console.log(`  bound on static data: ${64 * 1024} characters (64 KiB); objects listed per request: 1,000`);

		// issue 33: what the trigger keeps exactly once, and what it does beyond. The service's clock
		// moves on 14 minutes (under the 15 minutes of allowed skew), so that the 100,000 are older
		// than the window of the next poll however fast the runs above went
		await emu.control('POST', '/clock/advance', { ms: 14 * 60e3 });
		await poll();
		const seededAt = (await emu.control('GET', `/storage/objects?bucket=${BUCKET}`)).objects.find((o) => o.key === keyOf(0)).lastModified;
		const late = [];
		const measureLate = async (kind, changed, newKeys, write) => {
			await write();
			const p = await poll(false, true);
			const emitted = new Map(p.events.map((e) => [e.key, e]));
			const exact = p.events.filter((e) => !e.repeatPossible).length;
			const missed = newKeys.filter((k) => !emitted.has(k)).length;
			const fresh = new Set(newKeys);
			const repeats = p.events.filter((e) => !fresh.has(e.key)).length;
			if (missed) throw new Error(`${kind}: ${missed} new objects were not emitted`);
			late.push({ kind, changed, events: p.events.length, exact, flagged: p.events.length - exact, missed, repeats, state: p.state, ms: p.ms });
			console.log(`  ${kind}: ${p.events.length} events, ${exact} exactly once, ${p.events.length - exact} flagged, ${repeats} for unchanged objects, ${missed} missed; static data ${p.state} characters (load ${load()})`);
			// the next poll is exact again and emits nothing
			const next = await poll();
			if (next.items !== 0) throw new Error(`${kind}: the poll after emitted ${next.items} events`);
		};
		const lateObjects = (n, tag, lastModified) => Array.from({ length: n }, (_, i) => ({ key: `inbox/late/${tag}/${String(i).padStart(5, '0')}.json`, body: `late ${tag} ${i}`, lastModified }));
		for (const n of LATE) {
			const twoHoursAgo = new Date(Date.now() + 14 * 60e3 - 2 * 3600e3).toISOString();
			const objects = lateObjects(n, `old-${n}`, twoHoursAgo);
			await measureLate(`${n} late (2 h old)`, n, objects.map((o) => o.key), () => emu.control('POST', '/storage/objects', { bucket: BUCKET, objects }));
		}
		for (const n of [LATE[0], 2000]) {
			const objects = lateObjects(n, `same-${n}`, seededAt);
			await measureLate(`${n} late (same age as the 100,000)`, n, objects.map((o) => o.key), () => emu.control('POST', '/storage/objects', { bucket: BUCKET, objects }));
		}
		const folders = Array.from({ length: KEYS }, (_, i) => i).filter((i) => [1, 2, 3].includes(i % 97));
		await measureLate(`3 folders deleted (${folders.length} objects)`, folders.length, [], () => emu.control('POST', '/storage/objects/delete', { bucket: BUCKET, keys: folders.map(keyOf) }));
		const gone = new Set(folders.map(keyOf));
		const spread = Array.from({ length: 3000 }, (_, i) => keyOf((i * 31 + 5) % KEYS)).filter((k) => !gone.has(k));
		await measureLate(`${spread.length} deleted, spread over the bucket`, spread.length, [], () => emu.control('POST', '/storage/objects/delete', { bucket: BUCKET, keys: spread }));
		console.log('');
		console.log('  change                                  events  exactly once  flagged  missed  repeats  static data (chars)  ms/poll');
		for (const r of late) {
			console.log(`  ${r.kind.padEnd(38)}  ${String(r.events).padStart(6)}  ${String(r.exact).padStart(12)}  ${String(r.flagged).padStart(7)}  ${String(r.missed).padStart(6)}  ${String(r.repeats).padStart(7)}  ${String(r.state).padStart(19)}  ${fmt(r.ms, 0).padStart(7)}`);
		}
		return rows;
	} finally {
		await emu.close();
	}
}

if (require.main === module) {
	main().catch((e) => {
		console.error(e);
		process.exit(1);
	});
}
module.exports = { main };
