/** A page of a list, as clients ask for it: `page` from 1, `per_page` items. */
export interface Page {
  page: number;
  perPage: number;
}

/** The rows a page covers, as a repository reads them. */
export function pageWindow(page: Page): { offset: number; limit: number } {
  return { offset: (page.page - 1) * page.perPage, limit: page.perPage };
}
