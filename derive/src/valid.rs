//! Cross-cutting rules checked before expansion.

use crate::ast::Container;
use crate::ctxt::Ctxt;

pub fn check(cx: &Ctxt, container: &Container) {
    let name = container.ident;
    if container.is_enum && container.variants.is_empty() {
        cx.error(
            name,
            format!(
                "#[derive(Mutate)] needs at least one variant: `{name}` has no values to generate; \
                 add a variant or use a struct"
            ),
        );
        return;
    }
    if container
        .variants
        .iter()
        .all(|variant| variant.level(&container.self_type) == 2)
    {
        cx.error(
            name,
            format!(
                "`{name}` has no finite value: every {} contains another `{name}` through \
                 Box/Rc/Arc, a tuple or an array, so generation could never stop; add a variant \
                 without one (a leaf), or make the recursion optional with Option or Vec",
                if container.is_enum {
                    "variant"
                } else {
                    "value"
                }
            ),
        );
    }
    if container.is_enum
        && container
            .variants
            .iter()
            .all(|variant| variant.attrs.weight == 0)
    {
        cx.error(name, "every variant has `#[mutate(weight = 0)]`: give at least one variant a positive weight");
    }
    for variant in &container.variants {
        for field in &variant.fields {
            if let (Some(skip), Some(with)) = (field.attrs.skip, &field.attrs.with) {
                let _ = with;
                cx.push(syn::Error::new(
                    skip,
                    "`skip` and `with` conflict: a skipped field is never mutated; remove one of them",
                ));
            }
        }
    }
}
