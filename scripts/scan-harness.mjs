/**
 * Runs n8n's verification scanner the way n8n runs it (`npx @n8n/scan-community-package <name>`
 * calls analyzePackageByName), in its own process, with the network replaced by the local
 * server of scripts/scan-package.js: the scanner's axios requests to registry.npmjs.org and
 * codeload.github.com are rewritten to it (an unexpected address fails), and the scanner's own
 * `npm pack <name>@<version>` reads it through npm_config_registry.
 *
 * env: SCANNER_FILE (scanner/scanner.mjs), SCAN_PACKAGE, SCAN_VERSION, SCAN_REGISTRY_BASE,
 *      SCAN_CODELOAD_BASE. Prints "@@RESULT <json>" last.
 */
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const { SCANNER_FILE, SCAN_PACKAGE, SCAN_VERSION, SCAN_REGISTRY_BASE, SCAN_CODELOAD_BASE } = process.env;

// The scanner imports 'axios' from its own folder; importing the same file gives the same
// module instance, so its default instance carries this interceptor.
const axiosDir = path.dirname(createRequire(SCANNER_FILE).resolve('axios/package.json'));
const { default: axios } = await import(pathToFileURL(path.join(axiosDir, 'index.js')).href);
const requests = [];
const routes = [
	['https://registry.npmjs.org/', SCAN_REGISTRY_BASE],
	['https://codeload.github.com/', SCAN_CODELOAD_BASE],
];
axios.interceptors.request.use((config) => {
	const route = routes.find(([from]) => config.url.startsWith(from));
	if (!route) throw new Error(`scan harness: the scanner asked for ${config.url}, which this harness does not serve`);
	requests.push(config.url);
	return { ...config, url: route[1] + config.url.slice(route[0].length).replace(/^\/+/, '') };
});

const { analyzePackageByName } = await import(pathToFileURL(SCANNER_FILE).href);
const result = await analyzePackageByName(SCAN_PACKAGE, SCAN_VERSION);
const { error, ...plain } = result;
process.stdout.write(`\n@@RESULT ${JSON.stringify({ ...plain, error: error?.message, requests })}\n`);
