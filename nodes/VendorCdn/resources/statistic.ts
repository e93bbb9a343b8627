import type { IDataObject } from 'n8n-workflow';

import type { FieldDecl, OperationDecl } from '../../shared/api/declarations';
import { SERVICE_TYPES, STAT_BREAKDOWNS, VIEW_TYPES } from '../../shared/api/codes';
import { choice, choices, date, locators, required } from '../../shared/api/fields';
import { number, time } from '../../shared/api/simplify';
import { payload } from '../../shared/api/envelope';

const custom = { viewtype: ['custom'] };

/** Channels, period and service types shared by both statistics endpoints. */
const period: FieldDecl[] = [
	{ ...locators('domain_ids', 'channel', 'Channels', "Channels to include; not sent when empty, and the service then chooses (the vendor's documentation does not say which channels it counts)"), required: false, topLevel: true },
	required(choice('viewtype', 'Period', VIEW_TYPES, 'Period of the statistics; Custom uses the dates below', { default: 'today' })),
	{ ...date('begintime', 'From', 'First day of the custom period'), required: true, show: custom },
	{ ...date('endtime', 'To', 'Last day of the custom period'), required: true, show: custom },
	choices('serviceTypes', 'Service Types', SERVICE_TYPES, 'Only channels of these service types'),
];

export const statisticOperations: OperationDecl[] = [
	{
		endpoint: 'cdn/domainBandwidth',
		path: 'cdn/domainBandwidth',
		resource: 'statistic',
		operation: 'getBandwidth',
		name: 'Get Bandwidth',
		action: 'Get bandwidth statistics',
		description: 'Get bandwidth, traffic, requests and hits of channels over a period, one item per time slot',
		readOnly: true,
		fields: period,
		simplify: {
			time: time('logtime'),
			requests: number('reqs'),
			hits: number('hit'),
			trafficBytes: number('tx'),
			originBytes: number('rx'),
			avgDownloadMs: number('tpr'),
		},
		output: (envelope) => {
			const p = (payload(envelope) ?? {}) as IDataObject;
			return Array.isArray(p.bandwidth) ? (p.bandwidth as IDataObject[]) : [];
		},
	},
	{
		endpoint: 'cdn/domainLogstat',
		path: 'cdn/domainLogstat',
		resource: 'statistic',
		operation: 'getBreakdown',
		name: 'Get Breakdown',
		action: 'Get a statistics breakdown',
		description: 'Get the cache hit ratio and requests split by response code, country, province or ISP',
		readOnly: true,
		answersOneObject: true,
		fields: [...period, choices('types', 'Breakdowns', STAT_BREAKDOWNS, 'Which splits to return')],
	},
];
