#!/usr/bin/env node
'use strict';
/**
 * Start the vendor emulator from the command line.
 *
 *   node emulator/cli.js [--port 9000] [--host 127.0.0.1] [--data DIR] [--seed demo|empty]
 *                             [--latency MS] [--error-rate 0.1] [--error-ops UploadPart,cdn/refresh]
 *                             [--clock-offset MS] [--token-lifetime S] [--password-encoding none|md5|base64]
 *                             [--dialect name,name] [--fault '<JSON rule or array of rules>']
 *
 * Prints one JSON line {"url": ...} when it listens, then serves until SIGINT/SIGTERM; with
 * --data the state is saved there on exit and restored on the next start. --help lists the
 * dialects (emulator/dialects.js).
 */
const { createEmulator } = require('./index');
const { DIALECTS } = require('./dialects');

const USAGE = `usage: node emulator/cli.js [options]
  --port N                 port (default: a free one)        --host H   (default 127.0.0.1)
  --data DIR               keep state in DIR (saved on exit)  --seed demo|empty
  --latency MS             delay before every answer          --error-rate R (0..1)
  --error-ops A,B          operations the error rate hits     --clock-offset MS
  --token-lifetime S       management token lifetime          --password-encoding none|md5|base64
  --dialect A,B            readings of the documentation to play (all off by default):
${DIALECTS.map((d) => `      ${d.name.padEnd(22)} ${d.area.padEnd(10)} ${d.description}`).join('\n')}
  --fault JSON             fault rule(s) to inject, e.g. '{"op":"cdn/refresh","kind":"tooFrequent","rate":0.1}'
  --verbose                log emulator errors`;

function parse(argv) {
	const out = {};
	for (let i = 0; i < argv.length; i++) {
		const a = argv[i];
		if (!a.startsWith('--')) continue;
		const [k, inline] = a.slice(2).split('=');
		out[k] = inline !== undefined ? inline : argv[i + 1] && !argv[i + 1].startsWith('--') ? argv[++i] : 'true';
	}
	return out;
}

(async () => {
	const a = parse(process.argv.slice(2));
	if (a.help) {
		process.stdout.write(USAGE + '\n');
		process.exit(0);
	}
	const faults = {};
	if (a.latency) faults.latencyMs = Number(a.latency);
	if (a['error-rate']) faults.errorRate = Number(a['error-rate']);
	if (a['error-ops']) faults.errorOps = a['error-ops'].split(',');
	if (a['clock-offset']) faults.clockOffsetMs = Number(a['clock-offset']);
	if (a['token-lifetime']) faults.tokenLifetimeS = Number(a['token-lifetime']);
	if (a.fault) {
		const rules = JSON.parse(a.fault);
		faults.inject = Array.isArray(rules) ? rules : [rules];
	}
	const emu = await createEmulator({
		port: a.port ? Number(a.port) : 0,
		host: a.host || '127.0.0.1',
		dataDir: a.data,
		seed: a.seed || 'empty',
		faults,
		dialects: a.dialect || [],
		quiet: a.verbose !== 'true',
		management: a['password-encoding'] ? { passwordEncoding: a['password-encoding'] } : {},
	});
	process.stdout.write(JSON.stringify({ url: emu.url, port: emu.port, pid: process.pid }) + '\n');
	let closing = false;
	const stop = async () => {
		if (closing) return;
		closing = true;
		await emu.close();
		process.exit(0);
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
})().catch((err) => {
	console.error(err);
	process.exit(1);
});
