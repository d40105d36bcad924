//! The package's exceptions: every Rust error reaches Python as one of these, with the message
//! the command line prints (`file:line:column: ...` where there is a place).

use pyo3::create_exception;
use pyo3::exceptions::PyException;

create_exception!(
    _cspace,
    Error,
    PyException,
    "A cspace error: bad input (a file, a scenario, a setting) or a run that cannot be made, with \
     the message `sim` prints (file:line:column where there is one)."
);
create_exception!(
    _cspace,
    ActionError,
    Error,
    "An action cspace refuses before stepping: a wrong shape, a number that is not finite, or a \
     value out of range; the message names the agent and the value."
);
