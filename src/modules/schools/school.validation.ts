import { clearable, createInput, requiredText, text, updateInput } from '../../core/validation';

const optionalText = (max: number) => clearable(text(max), '');

/** Schools and buildings take the same fields; `title` is required on create. */
const schoolFields = {
  title: requiredText(255),
  address1: optionalText(255),
  address2: optionalText(255),
  city: optionalText(255),
  state: optionalText(255),
  postalCode: optionalText(255),
  country: optionalText(255),
  website: optionalText(255),
  phone: optionalText(255),
  fax: optionalText(255),
  pictureUrl: optionalText(2048),
  buildingCode: optionalText(255),
};

export const createSchoolSchema = createInput(schoolFields, ['title']);
export const updateSchoolSchema = updateInput(schoolFields);
