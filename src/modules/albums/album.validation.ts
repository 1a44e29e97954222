import { z } from 'zod';
import { clearable, createInput, htmlText, requiredText, updateInput } from '../../core/validation';

const sanitized = 'as HTML, sanitized on write (scripts, event handlers and javascript: links are removed)';

const albumFields = {
  title: requiredText(255).describe('Title.'),
  description: clearable(htmlText('Album.description'), '').describe(`Description, ${sanitized}.`),
  settingComments: z.boolean().describe("Whether comments are enabled on the album's content (default true)."),
  settingMemberPost: z
    .boolean()
    .describe('Whether members who do not administer the realm may add content (default false).'),
  published: z
    .boolean()
    .describe('Whether the album is published; unpublished albums are seen by administrators only (default true).'),
};

export const createAlbumSchema = createInput(albumFields, ['title']);
export const updateAlbumSchema = updateInput(albumFields);

/** At most this many files in one create: the request is one transaction. */
export const maxFilesPerCreate = 100;

const caption = clearable(htmlText('AlbumContent.caption'), '').describe(`Caption, ${sanitized}.`);

/** A file (upload) id: an integer on the wire, a numeric string as a GraphQL ID. */
const fileId = z.union(
  [
    z.int().min(0),
    z
      .string()
      .regex(/^\d{1,15}$/)
      .transform(Number),
  ],
  { error: 'must be a file id' },
);

export const contentExtraSchema = z.strictObject({
  fid: fileId.describe('The file (upload) id these extras belong to; one of `files`.'),
  caption: caption.nullish(),
  displayOrder: z
    .int()
    .min(-1_000_000)
    .max(1_000_000)
    .nullish()
    .describe('Position in the album, lowest first (default: after the last item).'),
  albumCover: z.boolean().nullish().describe("Make this image the album's cover."),
});

export const createContentSchema = z.strictObject({
  files: z
    .array(fileId)
    .min(1, 'name at least one uploaded file')
    .max(maxFilesPerCreate, `at most ${maxFilesPerCreate} files at once`)
    .describe("Ids of the viewer's stored, unattached uploads."),
  extras: z
    .array(contentExtraSchema)
    .max(maxFilesPerCreate)
    .nullish()
    .transform((extras) => extras ?? [])
    .describe('Extras per file, each naming its file by `fid`.'),
});

export const updateContentSchema = updateInput({
  caption,
  albumCover: z.boolean().describe('Make this image the cover (true), or stop it being the cover (false).'),
});

// A comment of nothing but markup that sanitizing removes (a lone script) is as blank as an empty one.
const comment = htmlText('AlbumComment.comment')
  .refine((html) => html.trim() !== '', 'is required')
  .describe(`Comment text, ${sanitized}.`);
export const createCommentSchema = createInput({ comment }, ['comment']);
