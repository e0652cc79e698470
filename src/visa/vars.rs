//! The caller's variable table: where each vISA variable lives.
//!
//! Register allocation is not geneu's job: the caller declares every
//! variable with its type, its number of elements and its placement, and
//! lowering only reads the table. Ids index the tables directly, except
//! predicates: vISA reserves `P0`, so predicate id `n` (n ≥ 1) is
//! `predicate[n - 1]`.

use alloc::vec::Vec;

use super::error::{Slot, VarKind, VisaError};
use super::types::VisaType;
use crate::model::{FlagReg, Platform, Type};

/// Bytes in a GRF register (the ISA floor's).
pub use crate::isa::GRF_BYTES;
/// GRF registers in the register file (the ISA floor's).
pub use crate::isa::GRF_COUNT;

/// Where a general variable lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Placement {
    /// In the GRF file, starting at this byte (register × 32 + subregister).
    Grf(u32),
    /// The null variable: writes are discarded (lowered to `null`).
    Null,
}

/// A general variable `V#`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GeneralVar {
    /// Element type.
    pub ty: VisaType,
    /// Number of elements.
    pub elements: u32,
    /// Placement.
    pub placement: Placement,
}

/// An address variable `A#`: consecutive word elements of `a0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AddressVar {
    /// Number of elements.
    pub elements: u8,
    /// The `a0` element (word subregister) holding element 0.
    pub subreg: u8,
}

/// A predicate variable `P#`: consecutive bits of a flag register.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PredicateVar {
    /// Number of elements (bits), 1 to 32.
    pub elements: u8,
    /// The flag subregister whose bit 0 holds element 0; elements run on
    /// into the next subregister of the same flag register.
    pub flag: FlagReg,
}

/// The variables of one vISA kernel and where they live.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VarTable {
    /// General variables, by id.
    pub general: Vec<GeneralVar>,
    /// Address variables, by id.
    pub address: Vec<AddressVar>,
    /// Predicate variables: id `n` is entry `n - 1`.
    pub predicate: Vec<PredicateVar>,
}

/// `a0`'s word elements that an indirect access can name on `p`.
pub const fn a0_elements(p: Platform) -> u32 {
    p.addr_subregs() as u32
}

impl VarTable {
    /// An empty table.
    pub fn new() -> Self {
        VarTable::default()
    }

    /// Declares a general variable placed at GRF byte `grf_byte`; returns its id.
    pub fn add_general(&mut self, ty: VisaType, elements: u32, grf_byte: u32) -> u32 {
        self.general.push(GeneralVar {
            ty,
            elements,
            placement: Placement::Grf(grf_byte),
        });
        (self.general.len() - 1) as u32
    }

    /// Declares a null variable of type `ty`; returns its id.
    pub fn add_null(&mut self, ty: VisaType) -> u32 {
        self.general.push(GeneralVar {
            ty,
            elements: 1,
            placement: Placement::Null,
        });
        (self.general.len() - 1) as u32
    }

    /// Declares an address variable at `a0.subreg`; returns its id.
    pub fn add_address(&mut self, elements: u8, subreg: u8) -> u16 {
        self.address.push(AddressVar { elements, subreg });
        (self.address.len() - 1) as u16
    }

    /// Declares a predicate variable at `flag`; returns its id (from 1).
    pub fn add_predicate(&mut self, elements: u8, flag: FlagReg) -> u16 {
        self.predicate.push(PredicateVar { elements, flag });
        self.predicate.len() as u16
    }

    /// General variable `id`, checked against the placement rules: a
    /// register type on `p`, aligned to its element, inside the GRF file,
    /// GRF-aligned if a GRF or larger, otherwise within one GRF.
    pub fn general_var(&self, p: Platform, slot: Slot, id: u32) -> Result<(GeneralVar, Type), VisaError> {
        let var = *self.general.get(id as usize).ok_or(VisaError::UnknownVariable {
            slot,
            kind: VarKind::General,
            id,
        })?;
        let bad = |reason| VisaError::BadVariable {
            kind: VarKind::General,
            id,
            reason,
        };
        if var.ty.is_packed() || matches!(var.ty, VisaType::Bool | VisaType::BF) {
            return Err(VisaError::Type {
                slot,
                ty: var.ty,
                reason: "no general variable of this type exists on Gen7/Gen8",
            });
        }
        let ty = var.ty.reg_type(p).ok_or(VisaError::Type {
            slot,
            ty: var.ty,
            reason: "the platform has no register type for it",
        })?;
        if var.elements == 0 {
            return Err(bad("a variable has at least one element"));
        }
        if let Placement::Grf(byte) = var.placement {
            let size = u64::from(var.ty.size());
            let bytes = u64::from(var.elements) * size;
            let start = u64::from(byte);
            let grf = u64::from(GRF_BYTES);
            if start % size != 0 {
                return Err(bad("placement is not aligned to the element size"));
            }
            if start + bytes > grf * u64::from(GRF_COUNT) {
                return Err(bad("placement runs past the end of the GRF file"));
            }
            if bytes >= grf && start % grf != 0 {
                return Err(bad("a variable of a GRF or more must be GRF-aligned"));
            }
            if bytes < grf && start / grf != (start + bytes - 1) / grf {
                return Err(bad("a variable smaller than a GRF must not cross a GRF boundary"));
            }
        }
        Ok((var, ty))
    }

    /// Address variable `id`, checked to lie within `a0` on `p`.
    pub fn address_var(&self, p: Platform, slot: Slot, id: u16) -> Result<AddressVar, VisaError> {
        let var = *self.address.get(usize::from(id)).ok_or(VisaError::UnknownVariable {
            slot,
            kind: VarKind::Address,
            id: id.into(),
        })?;
        let bad = |reason| VisaError::BadVariable {
            kind: VarKind::Address,
            id: id.into(),
            reason,
        };
        if var.elements == 0 {
            return Err(bad("a variable has at least one element"));
        }
        if u32::from(var.subreg) + u32::from(var.elements) > a0_elements(p) {
            return Err(bad("placement runs past the address register a0"));
        }
        Ok(var)
    }

    /// Predicate variable `id` (from 1), checked to lie within its flag register.
    pub fn predicate_var(&self, slot: Slot, id: u16) -> Result<PredicateVar, VisaError> {
        let unknown = VisaError::UnknownVariable {
            slot,
            kind: VarKind::Predicate,
            id: id.into(),
        };
        if id == 0 {
            return Err(VisaError::Predicate {
                id,
                reason: "P0 is reserved",
            });
        }
        let var = *self.predicate.get(usize::from(id) - 1).ok_or(unknown)?;
        let bad = |reason| VisaError::BadVariable {
            kind: VarKind::Predicate,
            id: id.into(),
            reason,
        };
        if var.flag.nr > 1 || var.flag.subnr > 1 {
            return Err(bad("flag registers are f0.0, f0.1, f1.0 and f1.1"));
        }
        if var.elements == 0 || u32::from(var.flag.subnr) * 16 + u32::from(var.elements) > 32 {
            return Err(bad("elements must fit the 32 bits of the flag register"));
        }
        Ok(var)
    }
}
