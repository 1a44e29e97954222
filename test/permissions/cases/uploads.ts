import { createHash, randomBytes } from 'node:crypto';
import { db } from '../../../src/db/database';
import { type Fixture, outcome, permissionCases } from '../../support/permissions';

const bytes = randomBytes(200);
const md5 = createHash('md5').update(bytes).digest('hex');
const announced = { filename: 'matrix.bin', filesize: bytes.length, md5_checksum: md5 };

/** An upload the teacher announced, fresh for each request: its bytes may be written once. */
const teachersUpload = (f: Fixture<object>) =>
  db().upload.create({
    data: {
      ownerId: f.teacher.id,
      filename: 'matrix.bin',
      filesize: bytes.length,
      md5Checksum: md5,
      storageKey: `f-${randomBytes(16).toString('hex')}`,
    },
  });

// Columns:                  outsider, otherSchoolStudent, student, teacher, parent, schoolAdmin, districtAdmin.
// Anyone signed in uploads; an upload is its uploader's alone until something attaches it.
export default permissionCases('uploads', async () => ({}), [
  { route: 'POST /upload', name: 'announce a file', expect: 'o o o o o o o', request: () => ({ body: announced }) },
  {
    route: 'PUT /upload/{id}',
    name: "the teacher's upload",
    expect: 'h h h o h h h',
    request: async (f) => ({ params: { id: (await teachersUpload(f)).id }, body: bytes }),
  },

  {
    graphql: `mutation($input: CreateUploadInput!) { createUpload(input: $input) { ${outcome} } }`,
    name: 'announce a file',
    expect: 'o o o o o o o',
    variables: () => ({ input: { filename: 'matrix.bin', filesize: bytes.length, md5Checksum: md5 } }),
  },
  {
    graphql: `mutation($input: ReceiveUploadContentInput!) { receiveUploadContent(input: $input) { ${outcome} } }`,
    name: "the teacher's upload",
    expect: 'h h h o h h h',
    variables: async (f) => ({
      input: { id: String((await teachersUpload(f)).id), contentBase64: bytes.toString('base64') },
    }),
  },
  {
    graphql: 'query($id: ID!) { upload(id: $id) { id: databaseId } }',
    name: "the teacher's upload",
    expect: 'h h h o h h h',
    variables: async (f) => ({ id: String((await teachersUpload(f)).id) }),
  },
]);
