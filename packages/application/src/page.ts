/** A page of a list, as clients ask for it: `page` from 1, `per_page` items. */
export interface Page {
  page: number;
  perPage: number;
}

/** A slice of a list by position, as cursor-paginated clients (GraphQL connections) ask for it. */
export interface RowWindow {
  offset: number;
  limit: number;
}

/** The rows a page covers, as a repository reads them. */
export function pageWindow(page: Page | RowWindow): { offset: number; limit: number } {
  if ('offset' in page) return { offset: page.offset, limit: page.limit };
  return { offset: (page.page - 1) * page.perPage, limit: page.perPage };
}
