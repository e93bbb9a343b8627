'use strict';
/**
 * The n8n lines the real-n8n suite runs on (`npm test`, scripts/test.js): the whole suite on the
 * default n8n (2.40.7), and on every other pinned line (1.123.81, the newest 1.x) the files that
 * prove what a user does with the package: it installs by name through n8n's installer and loads
 * with every node and operation, the example workflows run against the emulator, the credential
 * test, one trigger active, AI tool runs, and a large object downloaded and uploaded with its
 * memory measured. A file runs on another line with VENDOR_N8N_VERSION=<version> (lib.js).
 *
 * Left to the default line: smoke.test.js (a fixture package, the pipeline itself), editor.test.js
 * (n8n's editor, which 1.x draws differently) and queue.test.js (the queue-mode layout).
 */
const runtime = require('../../scripts/n8n-runtime');

const USER_FACING = ['installer.test.js', 'package.test.js', 'examples.test.js', 'credentials.test.js', 'trigger.test.js', 'ai.test.js', 'large-objects.test.js'];

/** [{ version, files }]: files undefined means the whole folder. */
const LINES = Object.keys(runtime.LINES).map((version) => ({ version, files: version === runtime.DEFAULT_VERSION ? undefined : USER_FACING }));

module.exports = { USER_FACING, LINES };
