import { clearable, createInput, requiredText, text, updateInput } from '../../core/validation';

const optionalText = (max: number, description: string) => clearable(text(max), '').describe(description);

/** Schools and buildings take the same fields; `title` is required on create. */
const schoolFields = {
  title: requiredText(255).describe('Name of the school.'),
  address1: optionalText(255, 'First address line.'),
  address2: optionalText(255, 'Second address line.'),
  city: optionalText(255, 'City.'),
  state: optionalText(255, 'State or region.'),
  postalCode: optionalText(255, 'Postal code.'),
  country: optionalText(255, 'Country.'),
  website: optionalText(255, 'Website URL.'),
  phone: optionalText(255, 'Phone number.'),
  fax: optionalText(255, 'Fax number.'),
  pictureUrl: optionalText(2048, 'Picture URL.'),
  buildingCode: optionalText(255, 'Code of the building, used by imports.'),
};

export const createSchoolSchema = createInput(schoolFields, ['title']);
export const updateSchoolSchema = updateInput(schoolFields);
