//! The context's extension slot: run-scoped values, one per type, that an adapter hands its
//! types' mutators through the [`Context`](super::Context) rather than through thread-locals
//! (a donor pool, a model, a generator size).

use core::any::{Any, TypeId};
use core::fmt;

/// A value the slot can hold: any `Clone + 'static` type (a [`Context`](super::Context) is
/// `Clone`, and so its extensions are).
trait Extension: Any {
    fn clone_boxed(&self) -> Box<dyn Extension>;
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
    fn into_any(self: Box<Self>) -> Box<dyn Any>;
}

impl<T: Any + Clone> Extension for T {
    fn clone_boxed(&self) -> Box<dyn Extension> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
    fn into_any(self: Box<Self>) -> Box<dyn Any> {
        self
    }
}

/// The values set on one context, at most one per type. A short list searched by `TypeId`:
/// an adapter sets one or two, and an empty list costs a context nothing to make or clone.
#[derive(Default)]
pub(super) struct Extensions(Vec<(TypeId, Box<dyn Extension>)>);

impl Extensions {
    fn position<T: Any>(&self) -> Option<usize> {
        self.0.iter().position(|(id, _)| *id == TypeId::of::<T>())
    }

    pub(super) fn set<T: Any + Clone>(&mut self, value: T) -> Option<T> {
        let earlier = self.remove::<T>();
        self.0.push((TypeId::of::<T>(), Box::new(value)));
        earlier
    }

    pub(super) fn get<T: Any>(&self) -> Option<&T> {
        let at = self.position::<T>()?;
        self.0[at].1.as_any().downcast_ref()
    }

    pub(super) fn get_mut<T: Any>(&mut self) -> Option<&mut T> {
        let at = self.position::<T>()?;
        self.0[at].1.as_any_mut().downcast_mut()
    }

    pub(super) fn remove<T: Any>(&mut self) -> Option<T> {
        let at = self.position::<T>()?;
        let (_, value) = self.0.swap_remove(at);
        value.into_any().downcast().ok().map(|value| *value)
    }
}

impl Clone for Extensions {
    fn clone(&self) -> Self {
        Extensions(
            self.0
                .iter()
                .map(|(id, value)| (*id, (**value).clone_boxed()))
                .collect(),
        )
    }
}

impl fmt::Debug for Extensions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Extensions({} set)", self.0.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Debug, PartialEq)]
    struct Size(usize);

    #[derive(Clone, Debug, PartialEq)]
    struct Donors(Vec<u8>);

    #[test]
    fn one_value_per_type() {
        let mut slot = Extensions::default();
        assert_eq!(slot.get::<Size>(), None);
        assert_eq!(slot.set(Size(3)), None);
        assert_eq!(slot.set(Donors(vec![1])), None);
        assert_eq!(
            slot.set(Size(5)),
            Some(Size(3)),
            "replacing returns the earlier"
        );
        assert_eq!(slot.get::<Size>(), Some(&Size(5)));
        slot.get_mut::<Donors>().unwrap().0.push(2);
        let copy = slot.clone();
        assert_eq!(slot.remove::<Donors>(), Some(Donors(vec![1, 2])));
        assert_eq!(slot.get::<Donors>(), None);
        assert_eq!(
            copy.get::<Donors>(),
            Some(&Donors(vec![1, 2])),
            "a clone is deep"
        );
        assert_eq!(format!("{copy:?}"), "Extensions(2 set)");
    }
}
