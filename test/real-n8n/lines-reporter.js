'use strict';
/**
 * A jest reporter for lines.jest.config.js: how long each file took on each n8n line, and per
 * line the sum of its files and the span from its first file's start to its last file's end (the
 * two lines share two workers, so the spans overlap). Printed after jest's own summary.
 */
class LinesReporter {
	constructor() {
		this.started = Date.now();
		this.lines = new Map(); // line -> [{ file, start, end, status }]
	}

	onTestResult(test, result) {
		const line = (test.context.config.displayName && test.context.config.displayName.name) || 'n8n';
		if (!this.lines.has(line)) this.lines.set(line, []);
		const failed = result.numFailingTests > 0 || Boolean(result.testExecError);
		this.lines.get(line).push({ file: test.path.replace(/^.*\/test\/real-n8n\//, ''), start: result.perfStats.start, end: result.perfStats.end, failed });
	}

	onRunComplete() {
		const s = (ms) => `${(ms / 1000).toFixed(0)} s`;
		const out = ['', 'real n8n suite, time per file and line:'];
		for (const [line, files] of this.lines) {
			const sum = files.reduce((a, f) => a + (f.end - f.start), 0);
			const first = Math.min(...files.map((f) => f.start));
			const last = Math.max(...files.map((f) => f.end));
			out.push(`  ${line}: ${files.length} files, ${s(sum)} of file time, from ${s(first - this.started)} to ${s(last - this.started)} of the run`);
			for (const f of [...files].sort((a, b) => a.start - b.start)) out.push(`    ${f.file}: ${s(f.end - f.start)} (from ${s(f.start - this.started)})${f.failed ? ' FAILED' : ''}`);
		}
		out.push(`  whole run: ${s(Date.now() - this.started)}`);
		process.stdout.write(`${out.join('\n')}\n`);
	}
}

module.exports = LinesReporter;
