/**
 * The Object Storage node: its resources, the operation each shows first, and the list of its
 * operations, one module each (`actions/<resource>/<operation>.operation.ts`, see
 * actions/types.ts). The 13 object-storage rows of endpoints.tsv, plus the presigned URL (a
 * Get object or Put object signed locally for someone else to send) and the compatibility check
 * (which sends many of them).
 *
 * Everything is read from this list: the Resource and Operation dropdowns, the parameters and
 * tool descriptions (properties.ts), the router, the README tables (scripts/docs.js) and the
 * coverage test. A new operation is one new module and one entry here.
 */
import { operation as bucketCheckCompatibility } from './actions/bucket/checkCompatibility.operation';
import { operation as bucketCreate } from './actions/bucket/create.operation';
import { operation as bucketDelete } from './actions/bucket/delete.operation';
import { operation as bucketGetAll } from './actions/bucket/getAll.operation';
import { operation as bucketGetAcl } from './actions/bucket/getAcl.operation';
import { operation as bucketListObjects } from './actions/bucket/listObjects.operation';
import { operation as bucketSetAcl } from './actions/bucket/setAcl.operation';
import { operation as folderCreate } from './actions/folder/create.operation';
import { operation as folderDelete } from './actions/folder/delete.operation';
import { operation as folderGetAll } from './actions/folder/getAll.operation';
import { operation as multipartAbort } from './actions/multipartUpload/abort.operation';
import { operation as multipartComplete } from './actions/multipartUpload/complete.operation';
import { operation as multipartInitiate } from './actions/multipartUpload/initiate.operation';
import { operation as multipartListParts } from './actions/multipartUpload/listParts.operation';
import { operation as multipartUploadPart } from './actions/multipartUpload/uploadPart.operation';
import { operation as objectCopy } from './actions/object/copy.operation';
import { operation as objectDelete } from './actions/object/delete.operation';
import { operation as objectDeleteMany } from './actions/object/deleteMany.operation';
import { operation as objectDownload } from './actions/object/download.operation';
import { operation as objectGetInfo } from './actions/object/getInfo.operation';
import { operation as objectMove } from './actions/object/move.operation';
import { operation as objectGetPresignedUrl } from './actions/object/getPresignedUrl.operation';
import { operation as objectUpload } from './actions/object/upload.operation';
import type { StorageArea } from './actions/types';

export const objectStorageArea: StorageArea = {
	node: 'vendorObjectStorage',
	defaultResource: 'object',
	defaultOperations: {
		bucket: 'checkCompatibility',
		object: 'upload',
		folder: 'getAll',
		multipartUpload: 'initiate',
	},
	// in the order people use them (fewer than five: n8n's lint leaves the order to the node), the
	// step-by-step multipart upload, which Upload does by itself, last
	resources: [
		{ value: 'object', name: 'File', description: 'Files stored in a bucket' },
		{ value: 'folder', name: 'Folder', description: 'Key prefixes ending in "/" and everything under them' },
		{ value: 'bucket', name: 'Bucket', description: 'Buckets, their access control and the files in them' },
		{ value: 'multipartUpload', name: 'Multipart Upload', description: 'Uploads of one file in numbered parts, step by step; Upload does this by itself for large files' },
	],
	operations: [
		bucketCheckCompatibility,
		bucketCreate,
		bucketDelete,
		bucketGetAll,
		bucketGetAcl,
		bucketSetAcl,
		bucketListObjects,
		objectUpload,
		objectDownload,
		objectDelete,
		objectDeleteMany,
		objectCopy,
		objectMove,
		objectGetInfo,
		objectGetPresignedUrl,
		folderCreate,
		folderGetAll,
		folderDelete,
		multipartInitiate,
		multipartUploadPart,
		multipartListParts,
		multipartComplete,
		multipartAbort,
	],
};
