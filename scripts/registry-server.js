#!/usr/bin/env node
'use strict';
/**
 * A private npm registry on 127.0.0.1 for the tests that install the package the way n8n's users
 * do: by name, from a registry, through n8n's own community-package installer.
 *
 * The server is verdaccio 6.8.0 (an npm registry server, from the npm registry) with no uplink:
 * it serves only what was published to it, so an install that reaches for anything else (a
 * second copy of n8n-workflow, say) fails with E404 instead of quietly fetching it from npmjs.
 * verdaccio 6.8.0 runs on Node 20; one of its dependencies asks for node-fetch 2.6.x, whose
 * newest release, 2.7.0, is taken through an override (6.10.x would need Node 22).
 *
 * It is installed on first use into .cache/verdaccio/6.8.0/ with `npm install --ignore-scripts`
 * (about 30 s; only the npm registry needs to be reachable), not as a devDependency: the
 * published package has no dependencies and the project's own tree stays as it is.
 *
 *   const { startRegistry } = require('./scripts/registry-server');
 *   const registry = await startRegistry();          // { url, npmrc, dir, publish(), view(), stop() }
 *   await registry.publish('/tmp/n8n-nodes-x-0.1.0.tgz');
 *   await registry.stop();
 *
 *   node scripts/registry-server.js [--port 4873]    a registry to try by hand (Ctrl-C stops it)
 *   node scripts/registry-server.js --install        install verdaccio if needed, then exit
 *                                                    (npm test runs it in the background at its start)
 *
 * registry.standIn() makes it answer, for one process, in place of https://registry.npmjs.org
 * (for a program that only ever asks npmjs, like n8n's community-package installer without an
 * Enterprise licence): an HTTP proxy on 127.0.0.1 for HTTPS_PROXY that opens the CONNECT tunnels
 * to registry.npmjs.org:443 itself, with a certificate for that name from a throw-away CA
 * (NODE_EXTRA_CA_CERTS), and answers what comes through from the local registry; every other
 * host is refused (502). Needs openssl. Its `env` is what the process gets; `requests` lists what
 * came.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const tls = require('node:tls');
const http = require('node:http');
const { spawn, spawnSync, execFileSync } = require('node:child_process');
const { stopProcessGroup } = require('./process-group');
const { freePort } = require('./free-port');

const ROOT = path.resolve(__dirname, '..');
const VERDACCIO_VERSION = '6.8.0';
const OVERRIDES = { 'node-fetch': '2.7.0' };

function log(line) {
	process.stderr.write(`[registry] ${line}\n`);
}

/** Installs the pinned verdaccio once (a lock-free install into a temporary folder, then a rename); returns its bin path. */
function ensureVerdaccio({ cacheRoot = path.join(ROOT, '.cache'), quiet = false } = {}) {
	const dir = path.join(cacheRoot, 'verdaccio', VERDACCIO_VERSION);
	const bin = (d) => path.join(d, 'node_modules', 'verdaccio', 'bin', 'verdaccio');
	const ready = (d) => {
		try {
			const stamp = JSON.parse(fs.readFileSync(path.join(d, 'installed.json'), 'utf8'));
			return JSON.stringify(stamp.overrides) === JSON.stringify(OVERRIDES) && require(path.join(d, 'node_modules', 'verdaccio', 'package.json')).version === VERDACCIO_VERSION;
		} catch {
			return false;
		}
	};
	if (ready(dir)) return bin(dir);
	const tmp = `${dir}.tmp-${process.pid}`;
	fs.rmSync(tmp, { recursive: true, force: true });
	fs.mkdirSync(tmp, { recursive: true });
	fs.writeFileSync(
		path.join(tmp, 'package.json'),
		`${JSON.stringify({ name: 'vendor-cloud-test-registry', private: true, description: 'The test registry server; written by scripts/registry-server.js', dependencies: { verdaccio: VERDACCIO_VERSION }, overrides: OVERRIDES }, null, '\t')}\n`,
	);
	if (!quiet) log(`installing verdaccio@${VERDACCIO_VERSION} into ${path.relative(ROOT, dir)} (npm install --ignore-scripts, node-fetch overridden to ${OVERRIDES['node-fetch']}) ...`);
	const t0 = Date.now();
	const env = { ...process.env };
	for (const k of Object.keys(env)) if (k.startsWith('npm_') && !/^npm_config_(registry|cache|userconfig)$/.test(k)) delete env[k];
	const r = spawnSync('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', '--package-lock=false'], { cwd: tmp, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
	if (r.status !== 0) {
		fs.rmSync(tmp, { recursive: true, force: true });
		throw new Error(`npm install verdaccio@${VERDACCIO_VERSION} failed (exit ${r.status}):\n${String(r.stderr).slice(-3000)}`);
	}
	fs.writeFileSync(path.join(tmp, 'installed.json'), JSON.stringify({ package: 'verdaccio', version: VERDACCIO_VERSION, overrides: OVERRIDES, at: new Date().toISOString(), tookMs: Date.now() - t0 }));
	try {
		fs.rmSync(dir, { recursive: true, force: true });
		fs.mkdirSync(path.dirname(dir), { recursive: true });
		fs.renameSync(tmp, dir);
	} catch (e) {
		// another process installed it meanwhile
		fs.rmSync(tmp, { recursive: true, force: true });
		if (!ready(dir)) throw e;
	}
	if (!quiet) log(`verdaccio installed in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
	return bin(dir);
}

/**
 * verdaccio's configuration: storage in `dir`, no uplinks, anyone may read and publish (the
 * server listens on 127.0.0.1 only), no sign-ups, no web page, warnings only.
 */
function config(dir) {
	return [
		`storage: ${JSON.stringify(path.join(dir, 'storage'))}`,
		'auth:',
		'  htpasswd:',
		`    file: ${JSON.stringify(path.join(dir, 'htpasswd'))}`,
		'    max_users: -1',
		'uplinks: {}',
		'packages:',
		"  '**':",
		'    access: $all',
		'    publish: $all',
		'    unpublish: $all',
		'web:',
		'  enable: false',
		'server:',
		'  keepAliveTimeout: 60',
		'log: { type: stdout, format: pretty, level: warn }',
		'',
	].join('\n');
}

/** The environment for npm talking to the registry: only its own npmrc, no variables of an outer `npm run`. */
function npmEnv(npmrc, extra = {}) {
	const env = {};
	for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('npm_') && !k.startsWith('NPM_')) env[k] = v;
	return { ...env, npm_config_userconfig: npmrc, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false', ...extra };
}

/**
 * Starts verdaccio on 127.0.0.1 (port: a free one by default) with a fresh storage under the OS
 * tmp dir. Returns { url, npmrc, dir, publish(tgz), view(name), stop() }. npmrc is an npm user
 * config naming the registry and a token for it (verdaccio accepts any: publishing is open), for
 * npm commands run against it.
 */
async function startRegistry({ port, quiet = true, timeoutMs = 60000 } = {}) {
	const bin = ensureVerdaccio({ quiet });
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendor-registry-'));
	const p = port || (await freePort());
	const url = `http://127.0.0.1:${p}/`;
	fs.writeFileSync(path.join(dir, 'config.yaml'), config(dir));
	const npmrc = path.join(dir, 'npmrc');
	fs.writeFileSync(npmrc, `registry=${url}\n//127.0.0.1:${p}/:_authToken=local-test-registry\n`);
	const child = spawn(process.execPath, [bin, '--config', path.join(dir, 'config.yaml'), '--listen', `127.0.0.1:${p}`], {
		cwd: dir,
		env: npmEnv(npmrc),
		stdio: ['ignore', 'pipe', 'pipe'],
		detached: true,
	});
	let output = '';
	const take = (d) => {
		output += d;
		if (output.length > 200000) output = output.slice(-100000);
		if (!quiet) process.stderr.write(d);
	};
	child.stdout.on('data', take);
	child.stderr.on('data', take);
	let exited = null;
	const exitPromise = new Promise((resolve) => child.on('close', (code, signal) => resolve((exited = { code, signal }))));
	// detached (its own process group, so stop() ends it whole): it must not outlive this process
	const orphan = () => {
		try {
			process.kill(-child.pid, 'SIGKILL');
		} catch {}
	};
	process.on('exit', orphan);
	exitPromise.then(() => process.removeListener('exit', orphan));
	const stop = async () => {
		if (!exited) await stopProcessGroup(child.pid, exitPromise, { graceMs: 5000 });
		fs.rmSync(dir, { recursive: true, force: true });
	};
	const until = Date.now() + timeoutMs;
	for (;;) {
		if (exited) throw new Error(`verdaccio exited at start (${JSON.stringify(exited)}):\n${output.slice(-3000)}`);
		const ok = await fetch(`${url}-/ping`, { signal: AbortSignal.timeout(2000) }).then(
			(r) => r.status === 200,
			() => false,
		);
		if (ok) break;
		if (Date.now() > until) {
			await stop();
			throw new Error(`verdaccio did not answer on ${url} within ${timeoutMs} ms:\n${output.slice(-3000)}`);
		}
		await new Promise((r) => setTimeout(r, 200));
	}

	const registry = {
		url,
		npmrc,
		dir,
		pid: child.pid,
		logs: () => output,
		/** `npm publish <tgz>` to this registry; resolves npm's output, throws with it on failure. */
		publish(tgz, { tag } = {}) {
			const args = ['publish', path.resolve(tgz), '--registry', url, '--ignore-scripts', '--provenance=false'];
			if (tag) args.push('--tag', tag);
			const r = spawnSync('npm', args, { cwd: dir, env: npmEnv(npmrc), encoding: 'utf8' });
			if (r.status !== 0) throw new Error(`npm publish ${path.basename(tgz)} to ${url} failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
			return `${r.stdout}${r.stderr}`;
		},
		/** This registry in place of https://registry.npmjs.org for a process (standIn()). */
		standIn: (opts) => standIn(registry, opts),
		/** The registry's document of a package (undefined when it has none). */
		async view(name) {
			const res = await fetch(`${url}${name.replace('/', '%2f')}`);
			return res.status === 200 ? res.json() : undefined;
		},
		stop,
	};
	return registry;
}

/** A throw-away CA and a certificate for `host` signed by it, in `dir` (openssl). */
function certificateFor(host, dir) {
	const f = (n) => path.join(dir, n);
	const ossl = (args) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
	try {
		ossl(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', f('ca.key'), '-out', f('ca.crt'), '-days', '2', '-subj', '/CN=n8n-nodes-vendor-cloud test registry CA', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign']);
		ossl(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', f('host.key'), '-out', f('host.csr'), '-subj', `/CN=${host}`]);
		fs.writeFileSync(f('host.ext'), `subjectAltName=DNS:${host}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n`);
		ossl(['x509', '-req', '-in', f('host.csr'), '-CA', f('ca.crt'), '-CAkey', f('ca.key'), '-CAcreateserial', '-out', f('host.crt'), '-days', '2', '-extfile', f('host.ext')]);
	} catch (e) {
		throw new Error(`making a certificate for ${host} with openssl failed (is openssl installed?): ${String(e.stderr || e.message).slice(-500)}`);
	}
	return { caFile: f('ca.crt'), key: fs.readFileSync(f('host.key')), cert: fs.readFileSync(f('host.crt')) };
}

/**
 * The local registry in place of https://registry.npmjs.org for a process given `env`: see the
 * header. Resolves { proxyUrl, caFile, env, requests, stop() }.
 */
async function standIn(registry, { host = 'registry.npmjs.org' } = {}) {
	const dir = fs.mkdtempSync(path.join(registry.dir, 'stand-in-'));
	const { caFile, key, cert } = certificateFor(host, dir);
	const local = new URL(registry.url);
	const requests = [];
	// what comes through a tunnel (or as a whole URL) for `host`, answered by the local registry
	const answer = (req, res, via) => {
		const url = new URL(req.url, `https://${req.headers.host || host}`);
		if (url.hostname !== host) {
			requests.push(`${req.method} ${url.href} (${via}) -> refused`);
			res.writeHead(502).end(`only ${host} is reachable through this proxy`);
			return;
		}
		requests.push(`${req.method} ${url.href} (${via}) -> local registry`);
		const headers = { ...req.headers, host: local.host };
		delete headers['proxy-connection'];
		const up = http.request({ host: local.hostname, port: local.port, method: req.method, path: `${url.pathname}${url.search}`, headers }, (r) => {
			res.writeHead(r.statusCode, r.headers);
			r.pipe(res);
		});
		up.on('error', (e) => res.writeHead(502).end(String(e)));
		req.pipe(up);
	};
	const inner = http.createServer((req, res) => answer(req, res, 'tunnel'));
	const proxy = http.createServer((req, res) => answer(req, res, 'proxy'));
	proxy.on('connect', (req, socket, head) => {
		const [name, port] = req.url.split(':');
		if (name !== host || (port && port !== '443')) {
			requests.push(`CONNECT ${req.url} -> refused`);
			socket.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
			return;
		}
		socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
		if (head && head.length) socket.unshift(head);
		const secure = new tls.TLSSocket(socket, { isServer: true, key, cert });
		secure.on('error', () => socket.destroy());
		inner.emit('connection', secure);
	});
	await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));
	const proxyUrl = `http://127.0.0.1:${proxy.address().port}`;
	return {
		proxyUrl,
		caFile,
		requests,
		// Node's own TLS (n8n) trusts NODE_EXTRA_CA_CERTS; npm takes only its cafile setting
		env: { HTTPS_PROXY: proxyUrl, https_proxy: proxyUrl, NO_PROXY: '127.0.0.1,localhost', no_proxy: '127.0.0.1,localhost', NODE_EXTRA_CA_CERTS: caFile, npm_config_cafile: caFile },
		stop: () => new Promise((resolve) => proxy.close(() => resolve())),
	};
}

module.exports = { startRegistry, ensureVerdaccio, standIn, VERDACCIO_VERSION };

if (require.main === module) {
	const argv = process.argv.slice(2);
	if (argv.includes('--install')) {
		try {
			const t0 = Date.now();
			const bin = ensureVerdaccio();
			log(`verdaccio ${VERDACCIO_VERSION} ready in ${path.relative(ROOT, path.dirname(path.dirname(path.dirname(path.dirname(bin)))))} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
			process.exit(0);
		} catch (err) {
			process.stderr.write(`${err.message}\n`);
			process.exit(1);
		}
	}
	const i = argv.indexOf('--port');
	const port = i >= 0 ? Number(argv[i + 1]) : 4873;
	startRegistry({ port, quiet: false }).then(
		(registry) => {
			log(`verdaccio ${VERDACCIO_VERSION} on ${registry.url} (no uplink; storage ${registry.dir}); npm --registry ${registry.url} publish <tgz>; Ctrl-C stops it`);
			const bye = () => registry.stop().then(() => process.exit(0));
			process.on('SIGINT', bye);
			process.on('SIGTERM', bye);
		},
		(err) => {
			process.stderr.write(`${err.message}\n`);
			process.exit(1);
		},
	);
}
