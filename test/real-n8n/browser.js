'use strict';
/**
 * A real browser for editor tests: Debian's Chromium driven by playwright-core (a devDependency;
 * it never downloads a browser of its own).
 *
 *   const browser = require('./browser');
 *   browser.ensureChromium();                   // apt-get install chromium when missing (as root)
 *   const { context, page, close } = await browser.launch({ width: 1440, height: 900 });
 *
 * Chromium runs headless with a fresh profile; the background-networking flags keep it from
 * calling home, which this machine's closed network refuses.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

function works() {
	if (!fs.existsSync(CHROMIUM)) return false;
	const r = spawnSync(CHROMIUM, ['--version'], { encoding: 'utf8', timeout: 30000 });
	return r.status === 0 && /Chromium/.test(r.stdout);
}

/**
 * Installs Debian's `chromium` package when /usr/bin/chromium is missing (a fresh CI machine);
 * returns at once when it is there. Needs root, as CI and the developers' machines run.
 */
function ensureChromium({ log = (s) => process.stderr.write(`${s}\n`) } = {}) {
	if (works()) return { installed: false, ms: 0 };
	const t0 = Date.now();
	if (typeof process.getuid === 'function' && process.getuid() !== 0) {
		throw new Error(`${CHROMIUM} is missing; install Debian's chromium package (apt-get install -y chromium) as root`);
	}
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	const apt = (args) => spawnSync('apt-get', args, { env, encoding: 'utf8', timeout: 20 * 60 * 1000, maxBuffer: 64 * 1024 * 1024 });
	log('[browser] installing Debian chromium (apt-get update && apt-get install -y chromium)…');
	const update = apt(['update', '-qq']);
	if (update.status !== 0) throw new Error(`apt-get update failed (exit ${update.status}):\n${String(update.stderr).slice(-2000)}`);
	const install = apt(['install', '-y', '-qq', 'chromium']);
	if (install.status !== 0 || !works()) {
		throw new Error(`apt-get install chromium failed (exit ${install.status}):\n${String(install.stdout).slice(-2000)}\n${String(install.stderr).slice(-2000)}`);
	}
	const ms = Date.now() - t0;
	log(`[browser] chromium installed in ${(ms / 1000).toFixed(0)} s`);
	return { installed: true, ms };
}

/** Chromium with a fresh profile; close() ends it and removes the profile. */
async function launch({ width = 1440, height = 900 } = {}) {
	const { chromium } = require('playwright-core');
	const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'chromium-profile-'));
	// launchPersistentContext passes the profile as --user-data-dir
	const context = await chromium.launchPersistentContext(profile, {
		executablePath: CHROMIUM,
		headless: true,
		args: ARGS,
		viewport: { width, height },
		deviceScaleFactor: 1,
	});
	const page = context.pages()[0] || (await context.newPage());
	return {
		context,
		page,
		async close() {
			await context.close().catch(() => {});
			fs.rmSync(profile, { recursive: true, force: true });
		},
	};
}

module.exports = { CHROMIUM, ARGS, ensureChromium, launch };
