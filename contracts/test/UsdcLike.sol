// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title Test only: a token that behaves as USDC does towards the court.
/// @notice The EIP-3009 surface of Circle's FiatToken (v2): `transferWithAuthorization`,
/// `receiveWithAuthorization` (only the payee may submit), `cancelAuthorization` and
/// `authorizationState`, an EIP-712 domain named "USD Coin", version "2", six decimals, and reverts
/// with reason strings rather than custom errors. Like USDC it keeps only whether a nonce is used,
/// never where its authorization went, so the court cannot lean on anything a real USDC lacks.
/// Written for docket's tests from the standard; never deploy it anywhere with value.
contract UsdcLike {
    /// @notice ERC-20: the token's name (also its EIP-712 domain name).
    /// @return The name.
    string public constant name = "USD Coin";
    /// @notice ERC-20: the token's symbol.
    /// @return The symbol.
    string public constant symbol = "USDC";
    /// @notice The EIP-712 domain version, as USDC's.
    /// @return The version.
    string public constant version = "2";
    /// @notice ERC-20: the token's decimals (six, as USDC).
    /// @return The decimals.
    uint8 public constant decimals = 6;

    bytes32 private constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    /// @notice EIP-3009: the EIP-712 type hash of `TransferWithAuthorization`.
    /// @return The type hash.
    bytes32 public constant TRANSFER_WITH_AUTHORIZATION_TYPEHASH = keccak256(
        "TransferWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)"
    );
    /// @notice EIP-3009: the EIP-712 type hash of `ReceiveWithAuthorization`.
    /// @return The type hash.
    bytes32 public constant RECEIVE_WITH_AUTHORIZATION_TYPEHASH = keccak256(
        "ReceiveWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)"
    );
    /// @notice EIP-3009: the EIP-712 type hash of `CancelAuthorization`.
    /// @return The type hash.
    bytes32 public constant CANCEL_AUTHORIZATION_TYPEHASH =
        keccak256("CancelAuthorization(address authorizer,bytes32 nonce)");
    /// @dev secp256k1n / 2: a larger `s` is the malleable twin of a valid signature.
    uint256 private constant HALF_N = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    /// @notice ERC-20: tokens moved (from zero: minted).
    /// @param from The payer (zero when minted).
    /// @param to The payee.
    /// @param value The amount.
    event Transfer(address indexed from, address indexed to, uint256 value);
    /// @notice ERC-20: an owner set a spender's allowance.
    /// @param owner The owner.
    /// @param spender The spender.
    /// @param value The allowance now.
    event Approval(address indexed owner, address indexed spender, uint256 value);
    /// @notice EIP-3009: an authorization was used.
    /// @param authorizer The payer who signed it.
    /// @param nonce Its nonce.
    event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce);
    /// @notice EIP-3009: an authorization was cancelled before it was used.
    /// @param authorizer The payer who signed it.
    /// @param nonce Its nonce.
    event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce);

    /// @notice Who deployed the token, the only one who may mint.
    /// @return The minter.
    address public immutable minter;
    /// @notice ERC-20: every token minted.
    /// @return The supply.
    uint256 public totalSupply;
    /// @notice ERC-20: an address's balance.
    /// @return The balance.
    mapping(address => uint256) public balanceOf;
    /// @notice ERC-20: what a spender may still take from an owner (owner, then spender).
    /// @return The allowance.
    mapping(address => mapping(address => uint256)) public allowance;
    mapping(address => mapping(bytes32 => bool)) private usedOrCanceled;

    constructor() {
        minter = msg.sender;
    }

    /// @notice Creates `value` tokens for `to`; only the minter.
    /// @param to The recipient (not zero).
    /// @param value The amount.
    function mint(address to, uint256 value) external {
        require(msg.sender == minter, "FiatToken: caller is not a minter");
        require(to != address(0), "FiatToken: mint to the zero address");
        totalSupply += value;
        balanceOf[to] += value;
        emit Transfer(address(0), to, value);
    }

    /// @notice ERC-20: moves `value` of the caller's tokens to `to`.
    /// @param to The payee (not zero).
    /// @param value The amount.
    /// @return True (a failure reverts).
    function transfer(address to, uint256 value) external returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    /// @notice ERC-20: lets `spender` take up to `value` of the caller's tokens.
    /// @param spender The spender.
    /// @param value The allowance.
    /// @return True.
    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    /// @notice ERC-20: moves `value` of `from`'s tokens to `to` out of the caller's allowance.
    /// @param from The payer.
    /// @param to The payee (not zero).
    /// @param value The amount.
    /// @return True (a failure reverts).
    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        require(value <= allowance[from][msg.sender], "ERC20: transfer amount exceeds allowance");
        allowance[from][msg.sender] -= value;
        _transfer(from, to, value);
        return true;
    }

    /// @notice EIP-3009: anyone may submit `from`'s signed transfer.
    /// @param from The payer, who signed.
    /// @param to The payee.
    /// @param value The amount.
    /// @param validAfter Valid only after this time (unix seconds).
    /// @param validBefore Valid only before this time (unix seconds).
    /// @param nonce The payer's unique nonce for this authorization.
    /// @param v The signature's recovery id.
    /// @param r The signature's r.
    /// @param s The signature's s (lower half only).
    function transferWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external {
        _useAuthorization(TRANSFER_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce, v, r, s);
    }

    /// @notice EIP-3009: only the payee `to` may submit `from`'s signed transfer (no front-running).
    /// @param from The payer, who signed.
    /// @param to The payee.
    /// @param value The amount.
    /// @param validAfter Valid only after this time (unix seconds).
    /// @param validBefore Valid only before this time (unix seconds).
    /// @param nonce The payer's unique nonce for this authorization.
    /// @param v The signature's recovery id.
    /// @param r The signature's r.
    /// @param s The signature's s (lower half only).
    function receiveWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external {
        require(to == msg.sender, "FiatTokenV2: caller must be the payee");
        _useAuthorization(RECEIVE_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce, v, r, s);
    }

    /// @notice EIP-3009: `authorizer` cancels an authorization it has not used.
    /// @param authorizer The payer who signed the authorization and signs the cancellation.
    /// @param nonce The authorization's nonce.
    /// @param v The cancellation signature's recovery id.
    /// @param r The cancellation signature's r.
    /// @param s The cancellation signature's s (lower half only).
    function cancelAuthorization(address authorizer, bytes32 nonce, uint8 v, bytes32 r, bytes32 s) external {
        require(!usedOrCanceled[authorizer][nonce], "FiatTokenV2: authorization is used or canceled");
        _requireSigner(keccak256(abi.encode(CANCEL_AUTHORIZATION_TYPEHASH, authorizer, nonce)), authorizer, v, r, s);
        usedOrCanceled[authorizer][nonce] = true;
        emit AuthorizationCanceled(authorizer, nonce);
    }

    /// @notice EIP-3009: whether `authorizer`'s `nonce` is used or cancelled. Nothing more is kept.
    /// @param authorizer The payer.
    /// @param nonce The nonce.
    /// @return True once used or cancelled.
    function authorizationState(address authorizer, bytes32 nonce) external view returns (bool) {
        return usedOrCanceled[authorizer][nonce];
    }

    /// @notice The EIP-712 domain authorizations are signed in (name, version, this chain, this token).
    /// @return The domain separator.
    function DOMAIN_SEPARATOR() public view returns (bytes32) {
        return keccak256(
            abi.encode(DOMAIN_TYPEHASH, keccak256(bytes(name)), keccak256(bytes(version)), block.chainid, address(this))
        );
    }

    function _useAuthorization(
        bytes32 typehash,
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) private {
        require(block.timestamp > validAfter, "FiatTokenV2: authorization is not yet valid");
        require(block.timestamp < validBefore, "FiatTokenV2: authorization is expired");
        require(!usedOrCanceled[from][nonce], "FiatTokenV2: authorization is used or canceled");
        _requireSigner(keccak256(abi.encode(typehash, from, to, value, validAfter, validBefore, nonce)), from, v, r, s);
        usedOrCanceled[from][nonce] = true;
        emit AuthorizationUsed(from, nonce);
        _transfer(from, to, value);
    }

    function _requireSigner(bytes32 structHash, address signer, uint8 v, bytes32 r, bytes32 s) private view {
        bytes32 digest = keccak256(abi.encodePacked("\x19\x01", DOMAIN_SEPARATOR(), structHash));
        require(uint256(s) <= HALF_N, "FiatTokenV2: invalid signature");
        address recovered = ecrecover(digest, v, r, s);
        require(recovered != address(0) && recovered == signer, "FiatTokenV2: invalid signature");
    }

    function _transfer(address from, address to, uint256 value) private {
        require(to != address(0), "ERC20: transfer to the zero address");
        require(value <= balanceOf[from], "ERC20: transfer amount exceeds balance");
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}
