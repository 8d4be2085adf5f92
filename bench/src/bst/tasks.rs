//! ETNA's BST task list (`tool/benchtool/Tasks.py`): which properties each mutant breaks.

use super::properties::Property::{self, *};
use super::tree::Mutant;

/// A task: a mutant and the properties it makes fail.
pub type Task = (Mutant, &'static [Property]);

/// The 53 (mutant, property) tasks, grouped by mutant.
///
/// ```
/// use typefuzz_bench::bst::TASKS;
/// assert_eq!(TASKS.iter().map(|(_, ps)| ps.len()).sum::<usize>(), 53);
/// ```
pub const TASKS: [Task; 8] = [
    (
        Mutant::Insert1,
        &[
            InsertPost,
            InsertModel,
            DeleteInsert,
            InsertInsert,
            InsertUnion,
            UnionDeleteInsert,
        ],
    ),
    (
        Mutant::Insert2,
        &[
            InsertPost,
            InsertModel,
            DeleteInsert,
            InsertInsert,
            InsertUnion,
            UnionDeleteInsert,
            InsertDelete,
        ],
    ),
    (
        Mutant::Insert3,
        &[
            InsertPost,
            InsertModel,
            InsertDelete,
            InsertInsert,
            InsertUnion,
            UnionDeleteInsert,
        ],
    ),
    (
        Mutant::Delete4,
        &[
            DeleteModel,
            DeletePost,
            DeleteDelete,
            DeleteInsert,
            DeleteUnion,
            InsertDelete,
            UnionDeleteInsert,
        ],
    ),
    (
        Mutant::Delete5,
        &[
            DeleteModel,
            DeletePost,
            DeleteDelete,
            DeleteInsert,
            DeleteUnion,
            UnionDeleteInsert,
        ],
    ),
    (
        Mutant::Union6,
        &[
            UnionValid,
            UnionPost,
            UnionModel,
            DeleteUnion,
            InsertUnion,
            UnionDeleteInsert,
            UnionUnionAssoc,
            UnionUnionIdem,
        ],
    ),
    (
        Mutant::Union7,
        &[
            UnionValid,
            UnionPost,
            UnionModel,
            DeleteUnion,
            InsertUnion,
            UnionDeleteInsert,
            UnionUnionAssoc,
        ],
    ),
    (
        Mutant::Union8,
        &[
            UnionPost,
            UnionModel,
            DeleteUnion,
            InsertUnion,
            UnionDeleteInsert,
            UnionUnionAssoc,
        ],
    ),
];

/// The no-bug controls: no mutant breaks these.
///
/// ```
/// use typefuzz_bench::bst::{Property, TASKS};
/// assert!(TASKS.iter().all(|(_, ps)| !ps.contains(&Property::InsertValid)));
/// ```
pub const CONTROLS: [Property; 2] = [InsertValid, DeleteValid];
