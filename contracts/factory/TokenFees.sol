// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {FeeAuthorization} from "../interfaces/CourtTypes.sol";
import {IEip712Token} from "../interfaces/IEip712Token.sol";
import {IFeeToken} from "../interfaces/IFeeToken.sol";
import {FilingFees} from "./FilingFees.sol";

/// @title The CaseFactory's filing fee in an EIP-3009 token, taken inside the filing.
/// @notice The fee may also be paid in any EIP-3009 token (`feeToken`, USDC included: the x402
/// "exact" scheme's payment): the plaintiff signs a transfer of at least `tokenFilingFee` to this
/// factory and hands it to `fileCaseWithAuthorization`, which submits it to the token itself and
/// forwards the fee to the fee recipient, in the filing's own transaction: paid and filed together,
/// or neither. An authorization a watcher copied out of a pending filing and submitted to the token
/// first still files: the fee it moved here serves that payer's filing with it, once. What reaches
/// the factory otherwise the owner returns with `refundToken`.
abstract contract TokenFees is FilingFees {
    /// @dev EIP-3009's TransferWithAuthorization type hash (what x402 "exact" signs).
    bytes32 private constant TRANSFER_WITH_AUTHORIZATION_TYPEHASH = keccak256(
        "TransferWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)"
    );

    /// @notice The token fee authorized, or what arrived of it, is below the token filing fee.
    /// @param required The token filing fee.
    /// @param paid What was authorized, or what arrived.
    error TokenFeeTooLow(uint256 required, uint256 paid);
    /// @notice The filing fee cannot be paid in a token now (no fee token set).
    error TokenFeeOff();
    /// @notice The token has this authorization's nonce used (or cancelled) already: by an earlier
    /// filing or a cancellation (an authorization someone submitted to the token first files: see
    /// `fileCaseWithAuthorization`).
    /// @param authorizer The payer (the caller).
    /// @param nonce The authorization's nonce (the payment reference).
    error AuthorizationUsed(address authorizer, bytes32 nonce);
    /// @notice The authorization's signature must be 65 bytes (r ‖ s ‖ v).
    /// @param length The length given.
    error SignatureLength(uint256 length);

    /// @notice The owner changed the token a filing fee may be paid in, or its fee.
    /// @param feeToken The token now (zero: none).
    /// @param tokenFilingFee The fee in its units.
    event TokenFeeChanged(address feeToken, uint256 tokenFilingFee);
    /// @notice A filing took a token fee (an EIP-3009 authorization to this factory) and forwarded it.
    /// @param payer The plaintiff who signed it.
    /// @param paymentRef The case's reference (the authorization's nonce).
    /// @param token The token.
    /// @param amount What arrived and was forwarded.
    event TokenFilingFeeTaken(address indexed payer, bytes32 indexed paymentRef, address token, uint256 amount);
    /// @notice The owner returned tokens that reached the factory outside a filing.
    /// @param token The token.
    /// @param to Who got them.
    /// @param amount How much.
    event TokenRefunded(address indexed token, address indexed to, uint256 amount);

    /// @notice The token a filing fee may also be paid in (zero: native coin only), and its fee.
    /// @return The token.
    IFeeToken public feeToken;
    /// @notice The filing fee in `feeToken`'s units.
    /// @return The fee.
    uint256 public tokenFilingFee;

    /// @notice The owner returns `amount` of `token` held by the factory to `to`. The factory holds
    /// no token between transactions (a filing forwards its fee at once), so anything here arrived
    /// outside a filing: an authorization to the factory that someone submitted to the token
    /// directly (the token's AuthorizationUsed and Transfer logs name its payer), or a plain transfer.
    /// @param token The token to return.
    /// @param to Who gets it back (its payer).
    /// @param amount How much, in the token's units.
    function refundToken(address token, address to, uint256 amount) external onlyOwner {
        if (to == address(0)) revert InvalidParameter();
        emit TokenRefunded(token, to, amount);
        if (!IFeeToken(token).transfer(to, amount)) revert FeeTransferFailed();
    }

    /// @notice Lets the filing fee also be paid in `token` (`fee` in its units), any EIP-3009 token;
    /// the zero address turns it off.
    /// @param token The token (zero: none).
    /// @param fee The fee in its units (not zero with a token).
    function setTokenFee(address token, uint256 fee) external onlyOwner {
        if (token != address(0) && fee == 0) revert InvalidParameter();
        feeToken = IFeeToken(token);
        tokenFilingFee = fee;
        emit TokenFeeChanged(token, fee);
    }

    /// @dev Submits the caller's authorization to the token (`transferWithAuthorization`: the x402
    /// "exact" client signs that type, so `receiveWithAuthorization`, which checks another, cannot take
    /// it) and forwards what arrived to the fee recipient. `from` is the caller, so the token's
    /// signature check is also the check that the caller is the payer. A nonce the token has used
    /// already: the fee it moved is here if someone submitted this very authorization first (see
    /// `_takeStrandedFee`); otherwise (a replay of a filed reference is refused before, by
    /// `_unusedRef`) it is refused by name.
    function _takeTokenFee(FeeAuthorization calldata auth) internal {
        IFeeToken token = feeToken;
        if (address(token) == address(0)) revert TokenFeeOff();
        if (auth.value < tokenFilingFee) revert TokenFeeTooLow(tokenFilingFee, auth.value);
        bytes calldata sig = auth.signature;
        if (sig.length != 65) revert SignatureLength(sig.length);
        if (token.authorizationState(msg.sender, auth.nonce)) {
            _takeStrandedFee(token, auth);
            return;
        }
        uint256 before = token.balanceOf(address(this));
        token.transferWithAuthorization(
            msg.sender,
            address(this),
            auth.value,
            auth.validAfter,
            auth.validBefore,
            auth.nonce,
            uint8(sig[64]),
            bytes32(sig[0:32]),
            bytes32(sig[32:64])
        );
        // What arrived, not what was asked: a token that takes a cut never under-pays the court silently.
        uint256 arrived = token.balanceOf(address(this)) - before;
        if (arrived < tokenFilingFee) revert TokenFeeTooLow(tokenFilingFee, arrived);
        emit TokenFilingFeeTaken(msg.sender, auth.nonce, address(token), arrived);
        if (!token.transfer(feeRecipient, arrived)) revert FeeTransferFailed();
    }

    /// @dev [records] issue #31, item 5. The token used the caller's nonce already and the caller's
    /// signature over this TransferWithAuthorization to this factory checks here: a watcher submitted
    /// it first and its `value` reached this factory, which forwards it as the fee (once: the
    /// reference is then used). EIP-3009 tokens keep no record of what a used nonce moved, so a payer
    /// who instead cancelled its own nonce could draw another payer's stranded fee here
    /// (docs/security.md); the balance check keeps that within what is stray.
    function _takeStrandedFee(IFeeToken token, FeeAuthorization calldata auth) private {
        bytes32 digest = keccak256(
            abi.encodePacked(
                "\x19\x01",
                IEip712Token(address(token)).DOMAIN_SEPARATOR(),
                keccak256(
                    abi.encode(
                        TRANSFER_WITH_AUTHORIZATION_TYPEHASH,
                        msg.sender,
                        address(this),
                        auth.value,
                        auth.validAfter,
                        auth.validBefore,
                        auth.nonce
                    )
                )
            )
        );
        bytes calldata sig = auth.signature;
        bytes32 s = bytes32(sig[32:64]);
        // Only low-s signatures (EIP-2), as the token checks them.
        address signer = uint256(s) > 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0
            ? address(0)
            : ecrecover(digest, uint8(sig[64]), bytes32(sig[0:32]), s);
        if (signer != msg.sender || signer == address(0)) revert AuthorizationUsed(msg.sender, auth.nonce);
        uint256 held = token.balanceOf(address(this));
        if (held < auth.value) revert TokenFeeTooLow(tokenFilingFee, held);
        emit TokenFilingFeeTaken(msg.sender, auth.nonce, address(token), auth.value);
        if (!token.transfer(feeRecipient, auth.value)) revert FeeTransferFailed();
    }
}
