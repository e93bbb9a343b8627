'use strict';
/**
 * Local emulator of the whole vendor: the S3-compatible object storage
 * (docs/vendor/object-storage.md) and the JSON management interface (docs/vendor/management.md),
 * on one HTTP port.
 *
 *   POST /API/<group>/<operation>   management interface (management/)
 *   /__emulator/...                 control routes for tests, benchmarks and npm start
 *   anything else                   object storage, path style /{bucket}/{key} (storage/)
 *
 * It is an independent implementation of the vendor's documentation (docs/vendor/) and never
 * imports the package's code.
 *
 *   const { createEmulator } = require('./emulator');
 *   const emu = await createEmulator({ seed: 'demo' });
 *   emu.url            // http://127.0.0.1:<port>
 *   emu.faults.set({ errorRate: 0.1, errorOps: ['UploadPart'] });
 *   emu.faults.set({ inject: [{ op: 'cdn/refresh', kind: 'truncatedJson', times: 1 }] });
 *   emu.dialects.set(['markerInclusive']);      // or createEmulator({ dialects: [...] })
 *   emu.stats.toJSON();                          // request and log-in counters
 *   await emu.close();
 *
 * Control routes: GET /__emulator/health; GET|POST /__emulator/faults (old switches and
 * `inject` rules, faults.js); GET|POST /__emulator/dialects (`{"set": [...]}`, dialects.js);
 * GET /__emulator/stats, POST /__emulator/stats/reset, GET /__emulator/requests (stats.js); POST /__emulator/clock/advance
 * `{ms}`; POST /__emulator/reset (fresh state, faults and counters cleared, dialects kept);
 * POST /__emulator/save; and the modules' own under /__emulator/storage/... and
 * /__emulator/management/...
 */
const http = require('node:http');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { Faults, Clock } = require('./faults');
const { Dialects } = require('./dialects');
const { Stats } = require('./stats');
const { readJson, sendJson } = require('./http-util');

const DEFAULTS = {
	host: '127.0.0.1',
	port: 0,
	dataDir: undefined, // persist state here (and keep object bodies on disk)
	seed: 'empty', // 'empty' | 'demo'
	storage: {},
	management: {},
	faults: {},
	dialects: [], // names from dialects.js, or 'a,b'
	quiet: true,
};

async function createEmulator(options = {}) {
	const opts = { ...DEFAULTS, ...options };
	const faults = new Faults(opts.faults);
	const clock = new Clock(faults);
	const dialects = new Dialects(opts.dialects);
	const stats = new Stats();
	const ctx = { faults, clock, dialects, stats, options: opts, dataDir: opts.dataDir, log: opts.quiet ? () => {} : console.log };
	if (opts.dataDir) fs.mkdirSync(opts.dataDir, { recursive: true });

	const { createStorage } = require('./storage');
	const { createManagement } = require('./management');
	const storage = createStorage(ctx, opts.storage);
	const management = createManagement(ctx, opts.management);
	const modules = { storage, management };

	const stateFile = opts.dataDir && path.join(opts.dataDir, 'state.json');
	let restored = false;
	if (stateFile && fs.existsSync(stateFile)) {
		const saved = JSON.parse(fs.readFileSync(stateFile, 'utf8'));
		for (const [name, mod] of Object.entries(modules)) if (saved[name] && mod.restore) mod.restore(saved[name]);
		restored = true;
	}
	if (!restored && opts.seed === 'demo') {
		for (const mod of Object.values(modules)) if (mod.seedDemo) await mod.seedDemo();
	}

	function save() {
		if (!stateFile) return;
		const out = {};
		for (const [name, mod] of Object.entries(modules)) if (mod.snapshot) out[name] = mod.snapshot();
		fs.writeFileSync(stateFile + '.tmp', JSON.stringify(out));
		fs.renameSync(stateFile + '.tmp', stateFile);
	}

	const control = {
		'GET /__emulator/health': async () => ({ ok: true }),
		'GET /__emulator/faults': async () => faults.toJSON(),
		'POST /__emulator/faults': async (body) => faults.set(body),
		'GET /__emulator/dialects': async () => dialects.toJSON(),
		'POST /__emulator/dialects': async (body) => dialects.set(body.set),
		'GET /__emulator/stats': async () => stats.toJSON(),
		'GET /__emulator/requests': async () => stats.requests(),
		'POST /__emulator/stats/reset': async () => stats.reset(),
		'POST /__emulator/clock/advance': async (body) => {
			clock.advance(Number(body.ms) || 0);
			return { now: clock.now() };
		},
		'POST /__emulator/reset': async () => {
			faults.reset();
			stats.reset();
			clock.advancedMs = 0;
			for (const mod of Object.values(modules)) if (mod.reset) await mod.reset();
			if (opts.seed === 'demo') for (const mod of Object.values(modules)) if (mod.seedDemo) await mod.seedDemo();
			return { ok: true };
		},
		'POST /__emulator/save': async () => {
			save();
			return { ok: true };
		},
	};
	for (const [name, mod] of Object.entries(modules)) {
		for (const [route, fn] of Object.entries(mod.control || {})) {
			const [method, sub] = route.split(' ');
			control[`${method} /__emulator/${name}${sub}`] = fn;
		}
	}

	const server = http.createServer(async (req, res) => {
		const url = new URL(req.url, 'http://emulator.local');
		try {
			if (url.pathname.startsWith('/__emulator/')) {
				const fn = control[`${req.method} ${url.pathname}`];
				if (!fn) return sendJson(res, 404, { error: `no control route ${req.method} ${url.pathname}` });
				const body = req.method === 'GET' ? {} : await readJson(req);
				let out;
				try {
					out = await fn(body, Object.fromEntries(url.searchParams));
				} catch (err) {
					if (err && err.status === 400) return sendJson(res, 400, { error: err.message });
					throw err;
				}
				return sendJson(res, 200, out);
			}
			stats.arrived();
			res.once('close', () => stats.left());
			res.setHeader('X-Trans-Id', crypto.randomUUID());
			res.setHeader('Date', clock.date().toUTCString());
			await faults.delay();
			if (url.pathname === '/API' || url.pathname.startsWith('/API/')) return await management.handle(req, res, url);
			return await storage.handle(req, res, url);
		} catch (err) {
			ctx.log('emulator error', err);
			if (!res.headersSent) sendJson(res, 500, { error: String((err && err.stack) || err) });
			else res.destroy();
		}
	});
	server.keepAliveTimeout = 30000;
	server.requestTimeout = 0;
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(opts.port, opts.host, resolve);
	});
	const { port } = server.address();
	const sockets = new Set();
	server.on('connection', (s) => {
		sockets.add(s);
		s.on('close', () => sockets.delete(s));
	});

	return {
		url: `http://${opts.host}:${port}`,
		port,
		faults,
		clock,
		dialects,
		stats,
		storage,
		management,
		save,
		async close() {
			save();
			// also the connections of requests a `hang` fault holds
			for (const s of sockets) s.destroy();
			await new Promise((r) => server.close(r));
			for (const mod of Object.values(modules)) if (mod.close) await mod.close();
		},
	};
}

module.exports = { createEmulator };
