//! The CSV result files: rows of `serde` structs written through the `csv` crate (quoting and
//! escaping are the crate's), with the numbers at the fixed precision the files have always had.

use std::io;
use std::path::Path;

use serde::{Serialize, Serializer};

/// Writes `rows` to `path` (header from the row struct's field names), replacing the file.
pub(crate) fn write<R: Serialize>(
    path: &Path,
    rows: impl IntoIterator<Item = R>,
) -> io::Result<()> {
    let mut writer = csv::Writer::from_path(path)?;
    for row in rows {
        writer.serialize(row)?;
    }
    writer.flush()
}

/// Serializes a number with `DIGITS` decimals (`serialize_with = "fixed::<6, _>"`).
pub(crate) fn fixed<const DIGITS: usize, S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(&format_args!("{x:.DIGITS$}"))
}

/// Serializes a number as Rust displays it (`1` for 1.0, `0.25`), the way a cap was written.
pub(crate) fn shortest<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize)]
    struct Row<'a> {
        name: &'a str,
        #[serde(serialize_with = "fixed::<2, _>")]
        seconds: f64,
        #[serde(serialize_with = "shortest")]
        cap_s: f64,
        count: Option<u64>,
    }

    #[test]
    fn rows_are_quoted_where_needed_and_numbers_keep_their_precision() {
        let path = std::env::temp_dir().join(format!("typefuzz-csv-{}.csv", std::process::id()));
        let rows = [
            Row {
                name: "plain",
                seconds: 0.5,
                cap_s: 1.0,
                count: Some(3),
            },
            Row {
                name: "a, \"quoted\"\nname",
                seconds: 1.0 / 3.0,
                cap_s: 0.25,
                count: None,
            },
        ];
        write(&path, rows).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let _ = std::fs::remove_file(&path);
        assert_eq!(
            text,
            "name,seconds,cap_s,count\nplain,0.50,1,3\n\"a, \"\"quoted\"\"\nname\",0.33,0.25,\n"
        );
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        let names: Vec<String> = reader
            .records()
            .map(|r| r.unwrap()[0].to_string())
            .collect();
        assert_eq!(names, ["plain", "a, \"quoted\"\nname"]);
    }
}
