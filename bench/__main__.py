import sys

if sys.argv[1:2] == ["e2e"]:
    from bench.e2e import main

    main(sys.argv[2:])
else:
    from bench.run import main

    main(sys.argv[1:])
