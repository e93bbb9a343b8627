#!/usr/bin/env node
'use strict';
/**
 * The crash n8n 2.40.7 sometimes ends with after a SIGTERM (issue 37), reproduced without n8n's
 * server and without any community package: n8n's expression engine (isolated-vm 7.0.1, on the
 * runtime's Node 24) is started, then disposed while the process exits, as n8n's
 * BaseCommand.exitSuccessFully() does (Promise.all of CrashJournal.cleanup(), the database's
 * close() and Expression.disposeExpressionEngine(), then process.exit() in `finally`).
 * isolated-vm disposes an isolate on a thread of its own; when exit() runs first, the static
 * destructor of isolated-vm's thread pool joins that thread while it unregisters the isolate
 * from a platform that is already being torn down, and the process ends with SIGSEGV.
 *
 *   node test/real-n8n/isolate-exit-race.js [--runs 40]
 *
 * Modes, each run in a fresh process on the runtime's Node, counted by how the process ended:
 *   race       dispose, then process.exit() at once (n8n's order)
 *   settled    dispose, wait 200 ms, then process.exit()
 *   nodispose  process.exit() with the engine still up
 * 2026-11-29, 40 runs each on the loaded 2-core machine: race 5 SIGSEGV, settled 0, nodispose 0.
 * gdb on a core of `race`: thread 1 (SIGSEGV) in ivm::PlatformDelegate::UnregisterIsolate <-
 * ivm::IsolateEnvironment::~IsolateEnvironment on an isolated-vm thread; the main thread in
 * exit() -> __run_exit_handlers -> ivm::thread_pool_t::~thread_pool_t -> std::thread::join.
 * The same race in the real n8n: `n8n execute` of Manual Trigger -> Set (`={{ 1 + 1 }}`) in a
 * home with no community package crashed at its first run, twice; its core: the crashing thread
 * is isolated-vm's (ivm::IsolateEnvironment::AsyncEntry -> ivm::EvalRunner::Phase2 ->
 * v8::ScriptCompiler::Compile -> ... -> Heap::MonotonicallyIncreasingTimeInMs -> a jump to a
 * freed platform), while the main thread is in node::Environment::Exit ->
 * DefaultProcessExitHandlerInternal: an isolate still compiling when n8n exits.
 */
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const CHILD = process.argv[2] === '--child';

async function child(mode, runtimeDir) {
	const { Expression } = require(path.join(runtimeDir, 'node_modules', 'n8n-workflow'));
	await Expression.initExpressionEngine({ engine: 'vm', poolSize: 1, maxCodeCacheSize: 1024, bridgeTimeout: 5000, bridgeMemoryLimit: 128, lazyAcquire: false });
	if (mode === 'nodispose') process.exit();
	if (mode === 'settled') {
		await Expression.disposeExpressionEngine();
		await new Promise((r) => setTimeout(r, 200));
		process.exit();
	}
	// n8n's exitSuccessFully: the other promises (crash journal, database) take a few ms
	await Promise.all([new Promise((r) => setTimeout(r, Math.random() * 5)), Expression.disposeExpressionEngine()]).finally(() => process.exit());
}

async function main() {
	const i = process.argv.indexOf('--runs');
	const runs = i >= 0 ? Number(process.argv[i + 1]) : 40;
	const { ensureRuntime } = require('../../scripts/n8n-runtime');
	const { nodeBin, runtimeDir } = await ensureRuntime({ quiet: true });
	console.log(`n8n's expression engine (isolated-vm) disposed at exit, ${runs} processes per mode on ${nodeBin}`);
	for (const mode of ['race', 'settled', 'nodispose']) {
		const ends = {};
		for (let n = 0; n < runs; n++) {
			const r = spawnSync(nodeBin, [__filename, '--child', mode, runtimeDir], { stdio: 'ignore' });
			const end = r.signal ?? `exit ${r.status}`;
			ends[end] = (ends[end] ?? 0) + 1;
		}
		console.log(`  ${mode}: ${Object.entries(ends).map(([end, count]) => `${count} x ${end}`).join(', ')}`);
	}
}

if (CHILD) {
	child(process.argv[3], process.argv[4]).catch((error) => {
		console.error(error);
		process.exit(1);
	});
} else {
	main().catch((error) => {
		console.error(error);
		process.exit(1);
	});
}
