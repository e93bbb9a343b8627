'use strict';
/**
 * The kernel's peak resident memory of this process (VmHWM in /proc/self/status), for the
 * benchmarks and the pacing test: `reset()` starts a new peak (writing 5 to /proc/self/clear_refs),
 * `read()` gives the peak since then in bytes. Sampling RSS misses a peak between two samples; the
 * kernel's own does not. undefined where Linux does not allow it (another system, a locked /proc).
 */
const fs = require('node:fs');

function kernelPeak() {
	try {
		fs.writeFileSync('/proc/self/clear_refs', '5');
		const read = () => Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]) * 1024;
		read();
		return { reset: () => fs.writeFileSync('/proc/self/clear_refs', '5'), read };
	} catch {
		return undefined;
	}
}

module.exports = { kernelPeak };
