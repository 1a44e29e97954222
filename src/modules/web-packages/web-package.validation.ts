import { createInput, nodeId, requiredText } from '../../core/validation';

export const createWebPackageSchema = createInput({ title: requiredText(255), uploadId: nodeId('Upload').transform(Number) }, ['title', 'uploadId']);
