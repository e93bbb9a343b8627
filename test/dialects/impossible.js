'use strict';
/**
 * Cells of the dialect matrix that cannot pass, with the reason: dialect -> operation -> reason.
 * An operation is "node/resource/operation" as the matrix names its rows, e.g.
 *
 *   numbersAsNumbers: { 'vendorCdn/channel/get': 'why no node can do this under that reading' },
 *
 * The matrix test fails when a cell fails that is not listed here, and when a listed cell passes
 * (the entry is then stale and must go).
 */
module.exports = {
	failedTasksListedRunning: {
		'vendorAccountBilling/account/checkCompatibility':
			'the listed status of a failed CDN task shows only after a task failed: the check never submits one (it writes nothing), and the Task Trigger needs no setting, it works under both readings (docs/vendor/readings.md#r59)',
	},
};
