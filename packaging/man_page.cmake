# Writes one manual page from what a program prints for --help and --version, so the page cannot
# drift from the program: help2man turns the help into NAME, SYNOPSIS, DESCRIPTION and OPTIONS,
# the hand-written INCLUDE adds what --help does not say (files, environment, see also), and with
# VERBS each subcommand's own --help (parity-cli VERB --help) is added under COMMANDS, verbatim.
# Run at build time (packaging/CMakeLists.txt):
#   cmake -DHELP2MAN=... -DPROGRAM=/path/to/exe -DSUMMARY="..." -DINCLUDE=file.h2m
#         [-DVERBS=ON] -DOUTPUT=name.1.gz -P man_page.cmake
cmake_minimum_required(VERSION 3.22)
foreach(var HELP2MAN PROGRAM SUMMARY INCLUDE OUTPUT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "man_page.cmake: ${var} is not set")
  endif()
endforeach()
get_filename_component(name "${PROGRAM}" NAME)
set(work "${OUTPUT}.d")
file(REMOVE_RECURSE "${work}")
file(MAKE_DIRECTORY "${work}")
# The window needs no display for --help; nothing here may depend on the caller's locale.
set(ENV{QT_QPA_PLATFORM} offscreen)
set(ENV{LC_ALL} C.UTF-8)

# Text printed verbatim in roff: backslashes, hyphens (so options read and copy as ASCII minus
# signs) and a line's first character where roff (. ') or help2man's include format ([ /) would
# read it as markup.
function(roff_verbatim text out_var)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REPLACE "-" "\\-" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'/]|\\[)" "\\1\\\\&\\2" text "${text}")
  set(${out_var} "${text}" PARENT_SCOPE)
endfunction()

set(includes --include "${INCLUDE}")
if(VERBS)
  execute_process(COMMAND "${PROGRAM}" --help OUTPUT_VARIABLE help RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${PROGRAM} --help exited ${rc}")
  endif()
  # The verbs are the lines of CLI11's subcommand list: "  verb   description".
  string(REGEX MATCH "\n[Ss][Uu][Bb][Cc][Oo][Mm][Mm][Aa][Nn][Dd][Ss]:\n(.*)" list "${help}")
  string(REGEX MATCHALL "\n  [a-z][a-z0-9-]*" verbs "\n${CMAKE_MATCH_1}")
  list(TRANSFORM verbs STRIP)
  if(NOT verbs)
    message(FATAL_ERROR "${PROGRAM} --help lists no subcommands")
  endif()
  set(section "[COMMANDS]\nEach command's own \\fB\\-\\-help\\fR, as \\fB${name} COMMAND \\-\\-help\\fR prints it.\n")
  foreach(verb IN LISTS verbs)
    execute_process(COMMAND "${PROGRAM}" ${verb} --help OUTPUT_VARIABLE verb_help
                    RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "${PROGRAM} ${verb} --help exited ${rc}")
    endif()
    string(STRIP "${verb_help}" verb_help)
    roff_verbatim("${verb_help}" verb_help)
    string(APPEND section ".SS ${verb}\n.nf\n.in +2\n${verb_help}\n.in\n.fi\n")
  endforeach()
  file(WRITE "${work}/commands.h2m" "${section}")
  list(APPEND includes --include "${work}/commands.h2m")
endif()

execute_process(
  COMMAND "${HELP2MAN}" --no-info --name "${SUMMARY}" ${includes}
          --output "${work}/${name}.1" "${PROGRAM}"
  RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "help2man ${PROGRAM} failed (${rc}): ${err}")
endif()
# -n: no name or time stamp inside the .gz, so the same page compresses to the same bytes.
execute_process(COMMAND gzip -9 -n -f "${work}/${name}.1" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gzip ${work}/${name}.1 failed")
endif()
file(RENAME "${work}/${name}.1.gz" "${OUTPUT}")
file(REMOVE_RECURSE "${work}")
