# Warnings on for every Apiary target: -Wall -Wextra for host code, and the same
# flags forwarded to the host compiler for CUDA translation units.
function(apiary_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra --Werror=cross-execution-space-call>)
endfunction()
