import type { OperationDecl } from '../../shared/api/declarations';
import { count, decimal, required } from '../../shared/api/fields';
import { CURRENCY_NOT_NAMED, field, first, number, time } from '../../shared/api/simplify';

export const trafficPackageOperations: OperationDecl[] = [
	{
		endpoint: 'cdn/flowPriceList',
		path: 'cdn/flowPriceList',
		resource: 'trafficPackage',
		operation: 'getPriceTiers',
		name: 'Get Price Tiers',
		action: 'Get traffic package price tiers',
		description: 'List the price tiers of traffic packages by size',
		list: { paged: false },
		readOnly: true,
		simplify: { id: field('id'), type: field('type'), from: number('lower'), to: number('upper'), price: number('price'), updated: time('updatetime'), created: time('created') },
		notes: [CURRENCY_NOT_NAMED],
	},
	{
		endpoint: 'cdn/payFlowAdd',
		path: 'cdn/payFlowAdd',
		resource: 'trafficPackage',
		operation: 'buy',
		name: 'Buy',
		action: 'Buy a traffic package',
		description: 'Buy a CDN traffic package of a given size, optionally with a coupon amount',
		fields: [
			required(count('flow', 'Traffic (Bytes)', 'a size in bytes', 'Size of the package in bytes, e.g. 107374182400 for 100 GB', { placeholder: 'e.g. 107374182400' })),
			decimal('couponprice', 'Coupon Amount', 'Part of the price paid from the coupon balance'),
		],
	},
	{
		endpoint: 'cdn/payFlowList',
		path: 'cdn/payFlowList',
		resource: 'trafficPackage',
		operation: 'getAll',
		name: 'Get Many',
		action: 'Get many traffic packages',
		description: 'List the traffic packages bought',
		list: { paged: false },
		readOnly: true,
		// type, paytype and flowtype come with display names (_zh) but the documents give no codes for them (docs/vendor/readings.md#r5)
		simplify: {
			id: field('id'),
			name: field('name'),
			code: field('code'),
			type: first('type_zh', 'type'),
			billing: first('paytype_zh', 'paytype'),
			trafficType: field('flowtype_zh'),
			sizeBytes: number('flow'),
			// flowover and monthflow have no documented meaning: the documents' words, camel-cased
			flowOver: number('flowover'),
			monthFlow: number('monthflow'),
			status: field('status'),
			username: field('username'),
			created: time('created'),
		},
	},
	{
		endpoint: 'cdn/payFlowBalance',
		path: 'cdn/payFlowBalance',
		resource: 'trafficPackage',
		operation: 'getBalance',
		name: 'Get Balance',
		action: 'Get the traffic balance',
		description: "Get the free, bought and this month's traffic, total and used",
		readOnly: true,
		answersOneObject: true,
	},
];
