import type { OperationDecl } from '../../shared/api/declarations';
import { field, number } from '../../shared/api/simplify';

export const imageOperations: OperationDecl[] = [
	{
		endpoint: 'instance/imageList',
		path: 'instance/imageList',
		resource: 'image',
		operation: 'getAll',
		name: 'Get Many',
		action: 'Get many images',
		description: 'List the operating system images hosts can be installed from, with their IDs',
		list: { paged: false },
		readOnly: true,
		simplify: { id: field('id'), imageId: field('image_id'), name: field('osname'), osType: field('ostype'), bits: number('osdigit'), status: field('status') },
	},
];
