import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';

/** Props of {@link EmptyResult}: what the list holds, whether a filter or search narrowed it, and how to clear them. */
export interface EmptyResultProps {
  /** The list's items in the plural, e.g. "donations". */
  what: string;
  /** True when a filter or a search is applied (the list is empty because of them). */
  filtered: boolean;
  /** Clears every filter and the search (the page's "Clear"). */
  onClear: () => void;
}

/**
 * What a staff list shows when it has no row (issue #36, part 2: "An empty result says so and offers to clear the
 * filters"): a sentence, announced (role status), and, when filters or a search narrowed the list, a button that
 * clears them.
 */
export function EmptyResult({ what, filtered, onClear }: EmptyResultProps) {
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 2 }}>
      <Typography role="status">{filtered ? `No ${what} match these filters.` : `No ${what} yet.`}</Typography>
      {filtered && (
        <Button variant="outlined" onClick={onClear}>
          Clear the filters
        </Button>
      )}
    </Box>
  );
}
