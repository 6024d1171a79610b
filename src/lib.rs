pub mod ir;
pub mod passes;
