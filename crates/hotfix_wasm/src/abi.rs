//! The module's exports: bytes in and out of WebAssembly's linear memory, nothing else. The
//! caller (playground/hotfix.mjs) writes a JSON request into memory it asked [`hotfix_alloc`]
//! for, calls [`hotfix_call`], and reads the JSON answer at [`hotfix_output`], which stays
//! valid until the next call.

#![allow(unsafe_code)]

use std::sync::Mutex;

/// The last answer, kept until the next call so that the caller can read it.
static OUTPUT: Mutex<Vec<u8>> = Mutex::new(Vec::new());

/// Memory for a request of `len` bytes (owned by the caller until it passes it to
/// [`hotfix_call`]).
#[unsafe(no_mangle)]
pub extern "C" fn hotfix_alloc(len: usize) -> *mut u8 {
    let mut buffer = Vec::<u8>::with_capacity(len.max(1));
    let ptr = buffer.as_mut_ptr();
    std::mem::forget(buffer);
    ptr
}

/// Answers the request of `len` bytes at `ptr` (memory from [`hotfix_alloc`] of that length,
/// taken back here), and returns the answer's length; the answer is at [`hotfix_output`].
///
/// # Safety
/// `ptr` must come from `hotfix_alloc(len)` and hold `len` initialised bytes; it is freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hotfix_call(ptr: *mut u8, len: usize) -> usize {
    // SAFETY: the caller passes back the allocation of `hotfix_alloc(len)`, filled.
    let request = unsafe { Vec::from_raw_parts(ptr, len, len.max(1)) };
    let answer = match std::str::from_utf8(&request) {
        Ok(text) => crate::call(text),
        Err(_) => crate::error_answer("the request is not UTF-8"),
    };
    let mut output = OUTPUT
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    *output = answer.into_bytes();
    output.len()
}

/// Where the last answer is.
#[unsafe(no_mangle)]
pub extern "C" fn hotfix_output() -> *const u8 {
    OUTPUT
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .as_ptr()
}
