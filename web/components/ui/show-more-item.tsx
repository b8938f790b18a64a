import { Button } from './button.tsx';

/** The last item of a list that loads page by page: 'Show more' while there is a next page. */
export function ShowMoreItem(props: {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}) {
  if (!props.hasNextPage) return null;
  return (
    <li className="p-2 text-center">
      <Button
        type="button"
        size="sm"
        variant="ghost"
        disabled={props.isFetchingNextPage}
        onClick={() => void props.fetchNextPage()}
      >
        Show more
      </Button>
    </li>
  );
}
