// A table's column headings: one <thead> row of <th scope="col"> cells, the same markup on every page's table.

export function TableHead({ columns }: { columns: readonly string[] }) {
  return (
    <thead>
      <tr>
        {columns.map((c) => (
          <th scope="col" key={c}>
            {c}
          </th>
        ))}
      </tr>
    </thead>
  );
}
