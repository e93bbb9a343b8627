'use strict';
/**
 * Runs before each test file of a line's jest project (lines.jest.config.js): the project's n8n
 * version becomes VENDOR_N8N_VERSION, which lib.js reads. jest gives every test file its own copy
 * of process.env, so a file of the other line in the same worker keeps its own.
 */
if (globalThis.VENDOR_N8N_VERSION) process.env.VENDOR_N8N_VERSION = globalThis.VENDOR_N8N_VERSION;
