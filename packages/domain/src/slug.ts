/** Registry slugs: lowercase, each run of characters other than a-z0-9 becomes one '-', no '-' at the ends. */
export function slugify(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}
