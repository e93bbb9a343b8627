'use strict';
/**
 * n8n 2.40.7 in queue mode, the way a team runs it when one process is not enough: PostgreSQL and
 * Redis (scripts/queue-services.js), one main instance (`n8n start` with EXECUTIONS_MODE=queue:
 * editor, REST API, webhooks, triggers) and workers (`n8n worker`) that run the executions. Each
 * process has its own user folder with the packed package installed the user's way
 * (lib.createN8nHome), all share the encryption key, the database and Redis.
 *
 *   const q = require('./queue-lib');
 *   const layout = await q.startQueueLayout({ tgz, workers: 2 });
 *   await layout.importCredentials([...]); const ids = await layout.importWorkflows([...]);
 *   await layout.main.activateWorkflow(id);                 // lib.js server of the main
 *   const res = await layout.webhook('my-path', { any: 'body' });
 *   layout.workerOf(executionId);                           // 'worker-1' | 'worker-2' | undefined
 *   layout.workers[0].rssKiB(); await layout.workers[0].kill('SIGKILL'); await layout.restartWorker(0);
 *   await layout.stop();
 *
 * Which process ran an execution: every worker logs "Worker started execution <id> (job <n>)" at
 * n8n's info level (scaling/job-processor.js); the layout reads each worker's output.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const crypto = require('node:crypto');
const { spawn } = require('node:child_process');

const n8n = require('./lib');
const { rssKiB } = require('./objects-lib');
const services = require('../../scripts/queue-services');
const { stopProcessGroup } = require('../../scripts/process-group');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const liveGroups = new Set();
process.on('exit', () => {
	for (const pid of liveGroups) {
		try {
			process.kill(-pid, 'SIGKILL');
		} catch {}
	}
});

/**
 * Starts `n8n worker` for a home and waits until its health server says ready (database and Redis
 * connected, queue listened to). Each worker gets its own task-runner broker port and health port.
 */
async function startWorker(home, { name = 'worker', env, concurrency, onOutput, timeoutMs = 240000 } = {}) {
	const { nodeBin, n8nBin } = await n8n.ensureRuntime({ quiet: true });
	const healthPort = await n8n.freePort();
	const runnerPort = await n8n.freePort();
	const fullEnv = n8n.baseEnv({
		...home.env,
		N8N_RUNNERS_BROKER_PORT: String(runnerPort),
		QUEUE_HEALTH_CHECK_ACTIVE: 'true',
		QUEUE_HEALTH_CHECK_PORT: String(healthPort),
		N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
		...env,
	});
	const args = [n8nBin, 'worker'];
	if (concurrency) args.push(`--concurrency=${concurrency}`);
	const t0 = Date.now();
	const child = spawn(nodeBin, args, { cwd: home.userFolder, env: fullEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
	liveGroups.add(child.pid);
	let output = '';
	const started = new Map(); // executionId -> time the worker logged it
	const take = (d) => {
		const text = String(d);
		output += text;
		if (output.length > 4e6) output = output.slice(-2e6);
		for (const m of text.matchAll(/Worker started execution (\d+)/g)) if (!started.has(m[1])) started.set(m[1], Date.now());
		if (onOutput) onOutput(text);
	};
	child.stdout.on('data', take);
	child.stderr.on('data', take);
	let exited = null;
	const exitPromise = new Promise((resolve) =>
		child.on('close', (code, signal) => {
			liveGroups.delete(child.pid);
			resolve((exited = { code, signal }));
		}),
	);
	const worker = {
		name,
		home,
		pid: child.pid,
		healthUrl: `http://127.0.0.1:${healthPort}`,
		startMs: 0,
		logs: () => output,
		exited: () => exited,
		/** Execution ids this worker logged as started, in order. */
		startedExecutions: () => [...started.keys()],
		rssKiB: () => rssKiB(child.pid),
		/** Sends a signal to the worker process itself (SIGKILL: a crash; its task runner goes too). */
		async kill(signal = 'SIGKILL') {
			if (exited) return exited;
			try {
				process.kill(child.pid, signal);
			} catch {}
			const res = await exitPromise;
			try {
				process.kill(-child.pid, 'SIGKILL');
			} catch {}
			return res;
		},
		/** SIGTERM (n8n waits for running executions up to its graceful shutdown time), then SIGKILL. */
		async stop({ graceMs = 20000 } = {}) {
			if (exited) return exited;
			return await stopProcessGroup(child.pid, exitPromise, { graceMs });
		},
	};
	const until = Date.now() + timeoutMs;
	for (;;) {
		if (exited) throw new Error(`n8n worker ${name} exited at start (${JSON.stringify(exited)}):\n${n8n.tail(output, 60)}`);
		if (Date.now() > until) {
			await worker.stop({ graceMs: 2000 });
			throw new Error(`n8n worker ${name} was not ready within ${timeoutMs} ms:\n${n8n.tail(output, 60)}`);
		}
		const ready = await n8n.request(`${worker.healthUrl}/healthz/readiness`, { timeoutMs: 2000 }).then(
			(r) => r.status === 200,
			() => false,
		);
		if (ready) break;
		await sleep(250);
	}
	worker.startMs = Date.now() - t0;
	return worker;
}

/**
 * A user folder for one process of the layout: the package installed the user's way, the shared
 * encryption key, and the queue-mode environment (database, Redis) added to home.env so every CLI
 * command and server of this home uses them.
 */
async function makeHome({ folder, tgz, encryptionKey, env, install = true }) {
	fs.mkdirSync(folder, { recursive: true });
	const settings = path.join(folder, 'n8n-home.json');
	let saved = {};
	try {
		saved = JSON.parse(fs.readFileSync(settings, 'utf8'));
	} catch {}
	if (saved.encryptionKey !== encryptionKey) fs.writeFileSync(settings, `${JSON.stringify({ ...saved, encryptionKey }, null, 2)}\n`);
	const home = install ? await n8n.createN8nHome({ userFolder: folder, tgz }) : n8n.openN8nHome(folder);
	Object.assign(home.env, env);
	return home;
}

/**
 * The whole layout: services, homes, main and workers. Options:
 *   tgz          the packed package (lib.packPackage)
 *   workers      how many `n8n worker` processes (2)
 *   dir          a folder to keep everything in (npm start); default: a fresh tmp folder, removed by stop()
 *   port         the main's port (default: a free one)
 *   env          extra environment for every n8n process (e.g. binary data mode)
 *   mainEnv, workerEnv   extra environment for the main / the workers only
 *   install      false: reuse the package already installed in dir's homes
 *   beforeStart  async (layout) => {}: runs after the homes exist and the database is migrated by
 *                the first CLI import, before the main and the workers start (imports go here)
 *   log          progress lines
 */
async function startQueueLayout({ tgz, workers = 2, dir, port, env = {}, mainEnv = {}, workerEnv = {}, install = true, beforeStart, log = () => {}, onOutput, owner = true } = {}) {
	const t0 = Date.now();
	const base = dir ? path.resolve(dir) : fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-queue-layout-'));
	fs.mkdirSync(base, { recursive: true });
	const logDir = path.join(base, 'logs');
	fs.mkdirSync(logDir, { recursive: true });
	const keyFile = path.join(base, 'encryption-key');
	let encryptionKey;
	try {
		encryptionKey = fs.readFileSync(keyFile, 'utf8').trim();
	} catch {}
	if (!encryptionKey) {
		encryptionKey = crypto.randomBytes(24).toString('hex');
		fs.writeFileSync(keyFile, `${encryptionKey}\n`, { mode: 0o600 });
	}

	const timings = {};
	let t = Date.now();
	const svc = await services.startServices({ dir: dir ? path.join(base, 'services') : undefined, keep: !!dir, log });
	timings.services = Date.now() - t;
	log(`PostgreSQL on 127.0.0.1:${svc.postgres.port}, Redis on 127.0.0.1:${svc.redis.port} (${timings.services} ms)`);

	const layout = {
		dir: base,
		services: svc,
		encryptionKey,
		main: undefined,
		workers: [],
		homes: {},
		timings,
		workerEnv: {},
		logFile: (name) => path.join(logDir, `${name}.log`),
	};
	const common = { ...svc.env, N8N_LOG_LEVEL: 'info', ...env };
	/** Each process's output goes to <dir>/logs/<name>.log (appended across restarts). */
	const output = (name, banner) => {
		const fd = fs.openSync(layout.logFile(name), 'a');
		if (banner) fs.writeSync(fd, `\n===== ${banner} ${new Date().toISOString()} =====\n`);
		return (text) => {
			fs.writeSync(fd, text);
			if (onOutput) onOutput(name, text);
		};
	};
	layout.stop = async () => {
		await Promise.all(layout.workers.map((w) => w.stop().catch(() => {})));
		if (layout.main) await layout.main.stop().catch(() => {});
		await svc.stop();
		if (!dir) fs.rmSync(base, { recursive: true, force: true });
	};

	try {
		t = Date.now();
		const names = ['main', ...Array.from({ length: workers }, (_, i) => `worker-${i + 1}`)];
		const homes = await Promise.all(
			names.map((name) => makeHome({ folder: path.join(base, name), tgz, encryptionKey, env: { ...common, ...(name === 'main' ? mainEnv : workerEnv) }, install })),
		);
		names.forEach((name, i) => (layout.homes[name] = homes[i]));
		timings.homes = Date.now() - t;
		log(`${names.length} user folders${install ? ' with the package installed' : ' (package already installed)'} (${timings.homes} ms)`);

		const mainHome = layout.homes.main;
		/** CLI imports through the main's home (its environment points at PostgreSQL). */
		layout.importCredentials = (list) => n8n.importCredentials(mainHome, list);
		layout.importWorkflows = async (list) => {
			const wfs = list.map((wf) => ({ ...wf, id: wf.id || n8n.newId(), active: false, settings: wf.settings || {}, connections: wf.connections || {} }));
			const file = path.join(mainHome.userFolder, `import-${Date.now()}-${crypto.randomBytes(3).toString('hex')}.json`);
			fs.writeFileSync(file, JSON.stringify(wfs));
			const res = await n8n.runN8n(mainHome, ['import:workflow', `--input=${file}`], { timeoutMs: 240000 });
			if ((res.code !== 0 && !n8n.crashedAtExit(res)) || !new RegExp(`Successfully imported ${wfs.length} workflow`).test(res.stdout + res.stderr)) {
				throw new Error(`n8n import:workflow failed (exit ${res.code}):\n${n8n.tail(res.stdout)}\n${n8n.tail(res.stderr)}`);
			}
			return wfs.map((wf) => wf.id);
		};
		if (beforeStart) {
			t = Date.now();
			await beforeStart(layout);
			timings.beforeStart = Date.now() - t;
		}

		t = Date.now();
		const [main, ...ws] = await Promise.all([
			n8n.startN8n(mainHome, { port, owner, timeoutMs: 300000, onOutput: output('main', 'start') }),
			...names.slice(1).map((name) => startWorker(layout.homes[name], { name, onOutput: output(name, 'start') })),
		]);
		layout.main = main;
		layout.workers = ws;
		timings.processes = Date.now() - t;
		log(`main on ${main.url} and ${ws.length} workers ready (${timings.processes} ms)`);
	} catch (err) {
		await layout.stop().catch(() => {});
		throw err;
	}

	/**
	 * Replaces worker i (after a kill, or stopping it first) by a new `n8n worker` on the same home;
	 * env is added to the home's environment for this and later starts.
	 */
	layout.restartWorker = async (i, { env: extra } = {}) => {
		const old = layout.workers[i];
		if (!old.exited()) await old.stop();
		if (extra) Object.assign(old.home.env, extra);
		const w = await startWorker(old.home, { name: old.name, onOutput: output(old.name, 'restarted') });
		w.previous = old;
		layout.workers[i] = w;
		return w;
	};
	/** Stops the main and every worker, then starts them again with env added (e.g. another binary data mode). */
	layout.restartAll = async ({ env: extra } = {}) => {
		await Promise.all([layout.main.stop(), ...layout.workers.map((w) => w.stop())]);
		const port = layout.main.port;
		if (extra) for (const home of Object.values(layout.homes)) Object.assign(home.env, extra);
		const [main] = await Promise.all([
			n8n.startN8n(layout.homes.main, { port, owner, timeoutMs: 300000, onOutput: output('main', 'restarted') }),
			...layout.workers.map((_, i) => layout.restartWorker(i)),
		]);
		layout.main = main;
	};
	/** The worker that logged the execution as started ('worker-1', …), or undefined (e.g. the main). */
	layout.workerOf = (executionId) => {
		const id = String(executionId);
		for (const w of layout.workers) {
			for (let cur = w; cur; cur = cur.previous) if (cur.startedExecutions().includes(id)) return w.name;
		}
		return undefined;
	};
	/**
	 * POST (or another method) to the main's production webhook /webhook/<path>. Activation runs in
	 * the background in n8n 2.40: while the webhook answers 404 "not registered" (no execution is
	 * started then) the call is repeated, for up to registerWaitMs.
	 */
	layout.webhook = async (webhookPath, body, { method = 'POST', timeoutMs = 300000, registerWaitMs = 90000 } = {}) => {
		const until = Date.now() + registerWaitMs;
		for (;;) {
			const res = await n8n.request(`${layout.main.url}/webhook/${webhookPath}`, { method, body, timeoutMs });
			if (!(res.status === 404 && /not registered/.test(res.text)) || Date.now() > until) return res;
			await sleep(300);
		}
	};
	timings.total = Date.now() - t0;
	return layout;
}

module.exports = { startQueueLayout, startWorker, rssKiB, makeHome };
