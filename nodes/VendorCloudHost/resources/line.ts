import { CODES, lineCode } from '../../shared/api/codes';
import type { OperationDecl } from '../../shared/api/declarations';
import { locator } from '../../shared/api/fields';
import { computed, field } from '../../shared/api/simplify';

export const lineOperations: OperationDecl[] = [
	{
		endpoint: 'instance/networkResourceList',
		path: 'instance/networkResourceList',
		resource: 'line',
		operation: 'getAll',
		name: 'Get Many',
		action: 'Get many lines',
		description: 'List the network lines (inner network, carriers, BGP) offered in a data center, with their IDs',
		list: { paged: false },
		readOnly: true,
		fields: [locator('nodeid', 'dataCentre', 'Data Center', 'The data center whose lines are listed')],
		// the line is its code (`linetype`, or a line name); the row `id` is not a line code (docs/vendor/readings.md#r61)
		simplify: {
			id: field('id'),
			line: computed((r) => {
				const c = lineCode(r.linetype);
				return c !== undefined && CODES.line[String(c)] ? CODES.line[String(c)] : (r.linetype as string | undefined);
			}),
			lineCode: computed((r) => {
				const c = lineCode(r.linetype);
				return c === undefined ? (r.linetype as string | undefined) : String(c);
			}),
			dataCentre: field('node.areaname'),
			dataCentreId: field('node.id'),
			status: field('status'),
		},
	},
];
