import { BILL_SERVICE_TYPES } from '../../shared/api/codes';
import type { OperationDecl } from '../../shared/api/declarations';
import { checked, choices, list, locator, locators, required } from '../../shared/api/fields';
import { code, field, number } from '../../shared/api/simplify';

export const billOperations: OperationDecl[] = [
	{
		endpoint: 'cdn/getBillByUser',
		path: 'cdn/getBillByUser',
		resource: 'bill',
		operation: 'getByAccount',
		name: 'Get by Account',
		action: 'Get bills of the account',
		description: 'Get the monthly CDN bills of the account or of a sub-account, per service type',
		readOnly: true,
		fields: [
			required({
				...checked(list('months', 'Months', 'Months to bill, yyyymm, one per line or comma-separated; at most 12 months back', { placeholder: 'e.g. 202611' }), {
					kind: 'months',
				}),
				send: 'array',
			}),
			choices('type', 'Service Types', BILL_SERVICE_TYPES, 'Only these service types'),
			{ ...locator('sub_uid', 'subAccount', 'Sub-Account', "The sub-account whose bill is read; required for a sub-account's bill"), required: false },
		],
		simplify: {
			month: field('month'),
			serviceType: code('srvtype', {}, 'srvtype_zh'),
			billingType: code('billtype', {}, 'billtype_zh'),
			totalBytes: number('total'),
			total: field('total_format'),
		},
	},
	{
		endpoint: 'cdn/getBillByDomainID',
		path: 'cdn/getBillByDomainID',
		resource: 'bill',
		operation: 'getByChannel',
		name: 'Get by Channel',
		action: 'Get bills of channels',
		description: 'Get the traffic billed for channels between two points in time',
		readOnly: true,
		fields: [
			locators('domain_ids', 'channel', 'Channels', 'Channels to bill'),
			{ wire: 'begintime', displayName: 'From', kind: 'unixTime', required: true, description: 'Start of the period' },
			{ wire: 'endtime', displayName: 'To', kind: 'unixTime', required: true, description: 'End of the period' },
		],
		simplify: { billingType: code('billtype', {}, 'billtype_zh'), totalBytes: number('total'), total: field('total_format') },
	},
];
