import type { FieldDecl, OperationDecl } from '../../shared/api/declarations';
import { locator, nameStr, required, secret, text } from '../../shared/api/fields';
import { field, time, type SimplifySpec } from '../../shared/api/simplify';
import { foundOne } from '../channels';

// "certificate content" and "private key content" have no stated form (docs/vendor/readings.md#r57); PEM is the usual one
const certificate = () => text('ssl_crt', 'Certificate', 'Certificate content, usually PEM (-----BEGIN CERTIFICATE-----)', { placeholder: 'e.g. -----BEGIN CERTIFICATE-----' });
const privateKey = (): FieldDecl => ({ ...secret('ssl_key', 'Private Key', 'Private key content, usually PEM (-----BEGIN PRIVATE KEY-----); it is never shown in output'), multiline: true });
const caCertificate = () => text('ssl_ca', 'CA Certificate', 'Certificate chain of the issuing CA, usually PEM');

const CERTIFICATE_SIMPLE: SimplifySpec = {
	id: field('id'),
	name: field('name'),
	commonName: field('commonname'),
	alternativeNames: field('subjectAltName'),
	username: field('username'),
	created: time('createtime'),
};

export const certificateOperations: OperationDecl[] = [
	{
		endpoint: 'cdn/sslList',
		path: 'cdn/sslList',
		resource: 'certificate',
		operation: 'getAll',
		name: 'Get Many',
		action: 'Get many certificates',
		description: 'List the SSL certificates uploaded for channels',
		list: { paged: true },
		readOnly: true,
		simplify: CERTIFICATE_SIMPLE,
	},
	{
		endpoint: 'cdn/sslList',
		path: 'cdn/sslList',
		resource: 'certificate',
		operation: 'get',
		name: 'Get',
		action: 'Get a certificate',
		description: 'Get one SSL certificate with its common name and alternative names',
		readOnly: true,
		simplify: CERTIFICATE_SIMPLE,
		fields: [locator('id', 'certificate', 'Certificate', 'The certificate to get')],
		after: foundOne('Certificate'),
	},
	{
		endpoint: 'cdn/sslAdd',
		path: 'cdn/sslAdd',
		resource: 'certificate',
		operation: 'create',
		name: 'Create',
		action: 'Create a certificate',
		description: 'Upload an SSL certificate and its private key for use by channels',
		fields: [
			required(nameStr('name', 'Name', 'Name of the certificate', { placeholder: 'e.g. example-com-2026' })),
			required(certificate()),
			required(privateKey()),
			caCertificate(),
		],
	},
	{
		endpoint: 'cdn/sslUpdate',
		path: 'cdn/sslUpdate',
		resource: 'certificate',
		operation: 'update',
		optionalIn: 'updateFields',
		name: 'Update',
		action: 'Update a certificate',
		description: 'Rename a certificate or replace its content, key or CA chain',
		fields: [locator('id', 'certificate', 'Certificate', 'The certificate to change'), nameStr('name', 'Name', 'New name'), certificate(), privateKey(), caCertificate()],
	},
	{
		endpoint: 'cdn/sslDelete',
		path: 'cdn/sslDelete',
		resource: 'certificate',
		operation: 'delete',
		name: 'Delete',
		action: 'Delete a certificate',
		description: 'Delete an SSL certificate',
		notice: "The certificate is deleted; the vendor's documentation does not say what becomes of channels that use it",
		deletes: true,
		fields: [locator('id', 'certificate', 'Certificate', 'The certificate to delete')],
	},
];
