import type { OperationDecl } from '../../shared/api/declarations';
import { decimal, int, required } from '../../shared/api/fields';

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
		read: true,
	},
	{
		endpoint: 'cdn/payFlowAdd',
		path: 'cdn/payFlowAdd',
		resource: 'trafficPackage',
		operation: 'buy',
		name: 'Buy',
		action: 'Buy a traffic package',
		description: 'Buy a CDN traffic package, paid from the balance and optionally from coupons',
		fields: [
			required(int('flow', 'Traffic (Bytes)', 'Size of the package in bytes, e.g. 107374182400 for 100 GB; the service offers the sizes of its price tiers', { placeholder: 'e.g. 107374182400' })),
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
		description: 'List the traffic packages bought, with what is left of each',
		list: { paged: false },
		read: true,
		simplify: ['id', 'name', 'code', 'flow', 'flowover', 'monthflow', 'status', 'created'],
	},
	{
		endpoint: 'cdn/payFlowBalance',
		path: 'cdn/payFlowBalance',
		resource: 'trafficPackage',
		operation: 'getBalance',
		name: 'Get Balance',
		action: 'Get the traffic balance',
		description: "Get the free, bought and this month's traffic, total and used",
		read: true,
		object: true,
	},
];
