import { createInput, numericId, requiredText } from '../../core/validation';

export const createWebPackageSchema = createInput({ title: requiredText(255), uploadId: numericId.transform(Number) }, ['title', 'uploadId']);
